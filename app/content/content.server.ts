/**
 * The site's editable content, read from files in the repository and checked at load time:
 * the blog questions (public/blogs.json, also served as-is at /blogs.json) and the portfolio
 * (app/content/portfolio.json). A malformed file fails loudly instead of rendering half a page.
 */
import { z } from "zod";
import blogsFile from "../../public/blogs.json";
import portfolioFile from "./portfolio.json";

const blogSchema = z.array(
  z.object({
    id: z.number().int(),
    Question: z.string().min(1),
    Ans: z.string().min(1),
  }),
);

const link = z.object({ label: z.string().min(1), url: z.string().url() });

const portfolioSchema = z.object({
  name: z.string().min(1),
  role: z.string().min(1),
  summary: z.string().min(1),
  contact: z.object({
    email: z.string().email(),
    phone: z.string().min(1),
    location: z.string().min(1),
    links: z.array(link),
  }),
  education: z.array(
    z.object({ degree: z.string(), school: z.string(), years: z.string(), details: z.string().optional() }),
  ),
  skills: z.array(z.string().min(1)),
  projects: z.array(
    z.object({
      name: z.string().min(1),
      description: z.string().min(1),
      url: z.string().url(),
      source: z.string().url().optional(),
    }),
  ),
});

export type BlogItem = z.infer<typeof blogSchema>[number];
export type Portfolio = z.infer<typeof portfolioSchema>;

const blogs = blogSchema.parse(blogsFile);
const portfolio = portfolioSchema.parse(portfolioFile);

export function getBlogItems(): BlogItem[] {
  return blogs;
}

export function getPortfolio(): Portfolio {
  return portfolio;
}
