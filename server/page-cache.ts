/**
 * A shared cache for public pages, inside the server: what a CDN in front of the shop would do
 * with our `Cache-Control: public, s-maxage=…, stale-while-revalidate=…`, kept in this process.
 *
 * - Only a GET without any cookie is answered from it or stored (the variant `Vary: Cookie`
 *   names for visitors who are not signed in and have no toast waiting), and only an answer that
 *   the page itself marked `public` with an `s-maxage` and that sets no cookie is stored.
 * - An entry is fresh for min(s-maxage, maxSeconds); after that it is served stale while one
 *   refresh runs in the background, for at most min(stale-while-revalidate, maxStaleSeconds).
 * - Any successful write through this process (a non-GET answered below 400) empties it, so a
 *   change made here shows at once; a change made elsewhere shows within maxSeconds.
 * - The page's CSP nonce is per answer: a stored page keeps the nonce it was rendered with,
 *   and every answer from the cache gets it replaced with the answer's own.
 * - A request with `Cache-Control: no-cache` (a browser's hard reload) skips the lookup.
 */
export type CachedPage = {
  status: number;
  headers: [string, string][];
  body: Buffer;
  /** The nonce the page was rendered with ("" when it carries none). */
  nonce: string;
  storedAt: number;
  freshUntil: number;
  staleUntil: number;
};

export type PageCacheOptions = {
  /** Longest time an entry is fresh, in seconds; 0 turns the cache off. */
  maxSeconds: number;
  /** Longest time an entry is served stale while it is refreshed, in seconds. */
  maxStaleSeconds?: number;
  maxEntries?: number;
  /** Answers larger than this are not stored. */
  maxBodyBytes?: number;
  now?: () => number;
};

export type Lookup = { page: CachedPage; state: "fresh" | "stale"; ageSeconds: number };

/** The seconds of `directive` in a Cache-Control value, or null. */
export function cacheDirective(cacheControl: string | null, directive: string) {
  if (!cacheControl) return null;
  const match = new RegExp(`(?:^|,)\\s*${directive}\\s*=\\s*"?(\\d+)"?\\s*(?:,|$)`, "i").exec(cacheControl);
  return match ? Number(match[1]) : null;
}

function isPublic(cacheControl: string | null) {
  return !!cacheControl && /(?:^|,)\s*public\s*(?:,|$)/i.test(cacheControl) && !/no-store|private/i.test(cacheControl);
}

export class PageCache {
  readonly maxSeconds: number;
  readonly maxStaleSeconds: number;
  readonly maxEntries: number;
  readonly maxBodyBytes: number;
  private readonly now: () => number;
  private readonly entries = new Map<string, CachedPage>();
  private readonly refreshing = new Set<string>();
  /** Bumped by clear(): a render that started before a write is not stored after it. */
  private generation = 0;

  constructor({ maxSeconds, maxStaleSeconds = 60, maxEntries = 500, maxBodyBytes = 512 * 1024, now = Date.now }: PageCacheOptions) {
    this.maxSeconds = maxSeconds;
    this.maxStaleSeconds = maxStaleSeconds;
    this.maxEntries = maxEntries;
    this.maxBodyBytes = maxBodyBytes;
    this.now = now;
  }

  get enabled() {
    return this.maxSeconds > 0;
  }

  get size() {
    return this.entries.size;
  }

  /** The cache key of a request, or null when the request must not use the cache. */
  keyFor(request: { method: string; url: string; headers: Record<string, string | string[] | undefined> }, variant = "") {
    if (!this.enabled || request.method !== "GET" || request.headers.cookie !== undefined) return null;
    return `${variant}|${request.headers.host ?? ""}|${request.url}`;
  }

  lookup(key: string, request?: { headers: Record<string, string | string[] | undefined> }): Lookup | null {
    const page = this.entries.get(key);
    if (!page) return null;
    const now = this.now();
    const cacheControl = String(request?.headers["cache-control"] ?? request?.headers.pragma ?? "");
    if (/no-cache|max-age=0/i.test(cacheControl)) return null;
    if (now >= page.staleUntil) {
      this.entries.delete(key);
      return null;
    }
    // Least recently used goes first when the cache is full.
    this.entries.delete(key);
    this.entries.set(key, page);
    return {
      page,
      state: now < page.freshUntil ? "fresh" : "stale",
      ageSeconds: Math.max(0, Math.floor((now - page.storedAt) / 1000)),
    };
  }

  /** Whether an answer may be stored: a 200 marked public with an s-maxage, setting no cookie. */
  storable(status: number, headers: Headers) {
    if (!this.enabled || status !== 200 || headers.has("set-cookie")) return false;
    const cacheControl = headers.get("cache-control");
    if (!isPublic(cacheControl) || !cacheDirective(cacheControl, "s-maxage")) return false;
    const vary = headers.get("vary");
    return !vary || vary.split(",").every((name) => name.trim().toLowerCase() === "cookie");
  }

  /** A token to hand to store(): stores made after a clear() that followed it are dropped. */
  startRender() {
    return this.generation;
  }

  store(key: string, generation: number, page: Omit<CachedPage, "storedAt" | "freshUntil" | "staleUntil">) {
    if (generation !== this.generation || page.body.byteLength > this.maxBodyBytes) return;
    const headers = new Headers(page.headers);
    const cacheControl = headers.get("cache-control");
    const fresh = Math.min(cacheDirective(cacheControl, "s-maxage") ?? 0, this.maxSeconds);
    const stale = Math.min(cacheDirective(cacheControl, "stale-while-revalidate") ?? 0, this.maxStaleSeconds);
    if (fresh <= 0) return;
    const now = this.now();
    this.entries.delete(key);
    this.entries.set(key, { ...page, storedAt: now, freshUntil: now + fresh * 1000, staleUntil: now + (fresh + stale) * 1000 });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** Runs `refresh` for a stale key unless one is already running. */
  refreshOnce(key: string, refresh: () => Promise<void>) {
    if (this.refreshing.has(key)) return;
    this.refreshing.add(key);
    refresh()
      .catch((error) => console.error("Refreshing a cached page failed:", error))
      .finally(() => this.refreshing.delete(key));
  }

  forget(key: string) {
    this.entries.delete(key);
  }

  clear() {
    this.generation += 1;
    this.entries.clear();
  }
}

/** The body of a stored page for one answer: its nonce replaced by the answer's own. */
export function bodyWithNonce(page: CachedPage, nonce: string) {
  if (!page.nonce || page.nonce === nonce) return page.body;
  const html = page.body.toString("utf8");
  return Buffer.from(html.split(page.nonce).join(nonce), "utf8");
}
