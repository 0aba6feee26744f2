// bench:floor's server: Express, compression and @remix-run/express, nothing of the shop's.
/* global process, performance, console */
import { createRequestHandler } from "@remix-run/express";
import compression from "compression";
import express from "express";
import path from "node:path";
import { pathToFileURL } from "node:url";

const build = await import(pathToFileURL(path.join(process.env.FLOOR_BUILD_DIR, "index.js")).href);
const app = express();
app.disable("x-powered-by");
// The same measure as the shop's Server-Timing: from the request to the moment the headers go out.
app.use((_req, res, next) => {
  const start = performance.now();
  const writeHead = res.writeHead;
  res.writeHead = function (...args) {
    const ms = (performance.now() - start).toFixed(1);
    if (!this.headersSent) this.setHeader("Server-Timing", `db;dur=0.0, render;dur=${ms}, total;dur=${ms}`);
    return writeHead.apply(this, args);
  };
  next();
});
app.use(compression());
app.all("*", createRequestHandler({ build, mode: "production" }));
const server = app.listen(Number(process.env.PORT), () => console.log("listening"));
process.on("SIGTERM", () => server.close(() => process.exit(0)));
