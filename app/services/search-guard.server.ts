/**
 * What keeps searching affordable for everyone: a text search (/parts?q=, GET /api/v1/parts?q=) is
 * counted per client address, or per API key, with rate-limiter-flexible on the shop's MongoDB as the
 * sign-in throttle is (rate-limit.server.ts), and the catalogue's answer to the same search is kept
 * for a short time in this process (lru-cache), so a search asked again costs nothing and is not
 * counted. A typo search can cost a second of the database's time; the same one answered from the
 * cache costs none.
 *
 * What is kept is the catalogue's answer only (which parts, in which order, the counts): prices and
 * whatever else depends on the person asking are worked out on every request. Kept answers go after
 * SEARCH_CACHE_SECONDS, and at once in this process when an admin changes a part (parts.server.ts).
 */
import { LRUCache } from "lru-cache";
import mongoose from "mongoose";
import { RateLimiterMongo, RateLimiterRes } from "rate-limiter-flexible";
import { getEnv } from "./env.server";
import { addressKey, inWords, THROTTLE_COLLECTION } from "./rate-limit.server";

/** Who a search is counted against: a client address (visitors and signed-in people alike), or an API key. */
export type Searcher = { ip: string } | { apiKeyId: string };

export type SearchRefusal = { retryAfterSeconds: number; limit: number };

export type GuardedSearch<T> = { refused: SearchRefusal } | { refused: null; value: T; cached: boolean };

/** The most answers kept at once (each a page of cards): a few megabytes at most. */
const KEPT_ANSWERS = 500;

/** The text of a search as the cache sees it: the same words, whatever their case, spacing or Unicode form. */
export function normalizedQuery(q: string) {
  return q.normalize("NFKC").trim().replace(/\s+/g, " ").toLowerCase();
}

class SearchGuard {
  private readonly limiter: RateLimiterMongo;
  private readonly answers: LRUCache<string, { value: Promise<unknown> }> | null;
  private ready: Promise<void> | undefined;

  constructor(
    readonly perMinute: number,
    cacheSeconds: number,
    storeClient: mongoose.Connection = mongoose.connection,
  ) {
    this.limiter = new RateLimiterMongo({
      storeClient,
      tableName: THROTTLE_COLLECTION,
      disableIndexesCreation: true,
      keyPrefix: "searches_minute",
      points: perMinute,
      duration: 60,
    });
    this.answers = cacheSeconds > 0 ? new LRUCache({ max: KEPT_ANSWERS, ttl: cacheSeconds * 1000 }) : null;
  }

  /** The limiter's indexes, once, before the first count (see SignInThrottle's whenReady for why). */
  private whenReady() {
    this.ready ??= this.limiter.createIndexes().catch((error: unknown) => {
      this.ready = undefined;
      throw error;
    });
    return this.ready;
  }

  async run<T>(searcher: Searcher, key: string, search: () => Promise<T>): Promise<GuardedSearch<T>> {
    const kept = this.answers?.get(key);
    if (kept) return { refused: null, value: (await kept.value) as T, cached: true };
    await this.whenReady();
    const who = "ip" in searcher ? `ip:${addressKey(searcher.ip)}` : `key:${searcher.apiKeyId}`;
    try {
      await this.limiter.consume(who, 1);
    } catch (rejected) {
      if (!(rejected instanceof RateLimiterRes)) throw rejected;
      const retryAfterSeconds = Math.max(1, Math.ceil(rejected.msBeforeNext / 1000));
      return { refused: { retryAfterSeconds, limit: this.perMinute } };
    }
    // The same search asked again while this one runs waits for this answer rather than running too.
    const value = search();
    const entry = { value };
    this.answers?.set(key, entry);
    value.catch(() => {
      if (this.answers?.get(key) === entry) this.answers.delete(key);
    });
    return { refused: null, value: await value, cached: false };
  }

  forget() {
    this.answers?.clear();
  }
}

let guard: SearchGuard | undefined;

function searchGuard() {
  const env = getEnv();
  guard ??= new SearchGuard(env.SEARCHES_PER_MINUTE, env.SEARCH_CACHE_SECONDS);
  return guard;
}

/**
 * A text search, counted against `searcher` unless its answer is kept: `key` names the search
 * (its normalized text and everything else that changes the answer).
 */
export function guardedSearch<T>(searcher: Searcher, key: string, search: () => Promise<T>) {
  return searchGuard().run(searcher, key, search);
}

/** Forgets every kept answer (a part was added, changed or removed). */
export function forgetCachedSearches() {
  guard?.forget();
}

/** What a refused search tells a person on /parts. */
export function searchRefusalMessage({ retryAfterSeconds }: SearchRefusal) {
  return (
    `Too many searches from your network just now. Please search again in ${inWords(retryAfterSeconds)}; ` +
    "meanwhile the categories, brands and vehicle filters work without a search."
  );
}
