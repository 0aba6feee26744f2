import type { ServerBuild } from "@remix-run/node";

/**
 * Single fetch asks `/page.data?_routes=root,routes/page` and hands the loaders the page's URL
 * with `.data` taken off but `_routes` (which loaders to run) left in. Taken off here too, so a
 * loader sees the page's own URL, as under `?_data`: in a sign-in `redirectTo`, in links that carry
 * the page's search on.
 */
export function withPageUrls(build: ServerBuild): ServerBuild {
  const routes: ServerBuild["routes"] = {};
  for (const [id, route] of Object.entries(build.routes)) {
    const { loader } = route.module;
    routes[id] = loader
      ? {
          ...route,
          module: { ...route.module, loader: (args) => loader({ ...args, request: pageRequest(args.request) }) },
        }
      : route;
  }
  return { ...build, routes };
}

function pageRequest(request: Request) {
  // Most requests (documents, and data requests that run every loader) have no `_routes`.
  if (!request.url.includes("_routes=")) return request;
  const url = new URL(request.url);
  url.searchParams.delete("_routes");
  return new Request(url, { headers: request.headers, signal: request.signal });
}
