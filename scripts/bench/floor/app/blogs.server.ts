import { readFileSync } from "node:fs";
import path from "node:path";

export type Item = { id: number; Question: string; Ans: string };
/** The shop's questions and answers, read once at start as the shop does. */
export const items = JSON.parse(readFileSync(path.resolve("public/blogs.json"), "utf8")) as Item[];
