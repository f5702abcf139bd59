/**
 * The response cache in Redis (`--cache redis://HOST:PORT[/DB]`), so several machines share one: replies are kept
 * through @langchain/community's Redis cache (key: the request's hash and its occurrence), and occurrences are
 * numbered with Redis counters, so the k-th identical request of a thread gets the k-th reply on any machine. A
 * failure turns the cache off for the rest of the run with a warning, never failing a call (as the SQLite store).
 */
import { defaultHashKeyEncoder } from "@langchain/core/caches";
import type { Generation } from "@langchain/core/outputs";
import { RedisCache } from "@langchain/community/caches/ioredis";
import { Redis } from "ioredis";
import { closeAtEnd } from "../../core/closers.ts";
import { firstLineOf } from "../../core/errors.ts";
import { lazyCrypto } from "../hash.ts";
import type { ReplyStore, StoredEntry } from "./response-cache.ts";

/** Where the replies live in Redis (the occurrence counters are `sqlmend:uses:…`): all of sqlmend's keys match `sqlmend:*`. */
export const REPLY_PREFIX = "sqlmend:reply:";

export const isRedisLocation = (spec: string | undefined): spec is string => !!spec && /^rediss?:\/\//i.test(spec);

export class RedisReplyStore implements ReplyStore {
  readonly file: string;
  broken: string | undefined;
  private readonly client: Redis;
  private readonly replies: RedisCache;

  constructor(
    private readonly url: string,
    private readonly warn: (line: string) => void,
  ) {
    const shown = new URL(url);
    if (shown.password) shown.password = "***";
    this.file = shown.toString();
    // Few retries and an offline queue that fails fast: a server that is gone must not hold a model call.
    this.client = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 5_000, enableOfflineQueue: true, lazyConnect: false });
    this.client.on("error", () => {}); // reported by the call that fails
    this.replies = new RedisCache(this.client);
    // Every key under the documented `sqlmend:` prefix (LangChain's default is a bare hash, which `sqlmend:*` misses).
    this.replies.makeDefaultKeyEncoder((...parts: string[]) => `${REPLY_PREFIX}${defaultHashKeyEncoder(...parts)}`);
    this.unregister = closeAtEnd(() => this.close());
  }

  private readonly unregister: () => void;

  private slot(occurrence: number) {
    return `sqlmend:occurrence:${occurrence}`;
  }

  async get(key: string, occurrence: number): Promise<StoredEntry | undefined> {
    if (this.broken) return undefined;
    try {
      const found = (await this.replies.lookup(key, this.slot(occurrence))) as Generation[] | null;
      return found?.[0] ? (JSON.parse(found[0].text) as StoredEntry) : undefined;
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  async nextOccurrence(scope: string, key: string): Promise<number | undefined> {
    if (this.broken) return undefined;
    try {
      const counter = `sqlmend:uses:${lazyCrypto().createHash("sha256").update(`${scope}\u0000${key}`).digest("hex")}`;
      return (await this.client.incr(counter)) - 1;
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  async put(key: string, occurrence: number, entry: StoredEntry, overwrite: boolean): Promise<boolean> {
    if (this.broken) return false;
    try {
      // First writer wins, as in the SQLite store (refresh overwrites).
      if (!overwrite && (await this.replies.lookup(key, this.slot(occurrence)))) return false;
      await this.replies.update(key, this.slot(occurrence), [{ text: JSON.stringify(entry) }]);
      return true;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  private fail(error: unknown) {
    if (this.broken) return; // calls in flight when it failed: said once
    this.broken = `response cache ${this.file} failed (${firstLineOf(error)}): running without it`;
    this.warn(this.broken);
  }

  close() {
    this.unregister();
    if (openStores.get(this.url) === this) openStores.delete(this.url);
    this.client.disconnect();
  }
}

const openStores = new Map<string, RedisReplyStore>();

/** One connection per Redis URL while a command runs (its providers share it); the launcher closes it at the end. */
export function openRedisStore(url: string, warn: (line: string) => void): RedisReplyStore {
  let store = openStores.get(url);
  if (!store || store.broken) {
    store = new RedisReplyStore(url, warn);
    openStores.set(url, store);
  }
  return store;
}
