/**
 * The response cache in Redis (`--cache redis://HOST:PORT[/DB]`), so several machines share one: a reply is kept under
 * the request's hash and its occurrence, and occurrences are numbered with Redis counters, so the k-th identical
 * request of a thread gets the k-th reply on any machine. A failure turns the cache off for the rest of the run with a
 * warning, never failing a call (as the SQLite store). Keys and values are those @langchain/community's RedisCache
 * wrote (a generation `{ text }` under `sqlmend:reply:<sha256 of key_slot_0>`), so replies cached before still read;
 * the package itself is not a dependency (its tree pulled versions a consumer's install could not resolve).
 */
import { defaultHashKeyEncoder } from "@langchain/core/caches";
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
    this.unregister = closeAtEnd(() => this.close());
  }

  private readonly unregister: () => void;

  /** A reply's key: the request's key and its occurrence, hashed under the documented `sqlmend:` prefix. */
  private keyOf(key: string, occurrence: number) {
    return `${REPLY_PREFIX}${defaultHashKeyEncoder(key, `sqlmend:occurrence:${occurrence}`, "0")}`;
  }

  async get(key: string, occurrence: number): Promise<StoredEntry | undefined> {
    if (this.broken) return undefined;
    try {
      const found = await this.client.get(this.keyOf(key, occurrence));
      return found ? (JSON.parse((JSON.parse(found) as { text: string }).text) as StoredEntry) : undefined;
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
      const value = JSON.stringify({ text: JSON.stringify(entry) });
      if (overwrite) await this.client.set(this.keyOf(key, occurrence), value);
      else if ((await this.client.set(this.keyOf(key, occurrence), value, "NX")) === null) return false;
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
