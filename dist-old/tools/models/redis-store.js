/**
 * The response cache in Redis (`--cache redis://HOST:PORT[/DB]`), so several machines share one: replies are kept
 * through @langchain/community's Redis cache (key: the request's hash and its occurrence), and occurrences are
 * numbered with Redis counters, so the k-th identical request of a thread gets the k-th reply on any machine. A
 * failure turns the cache off for the rest of the run with a warning, never failing a call (as the SQLite store).
 */
import { defaultHashKeyEncoder } from "@langchain/core/caches";
import { RedisCache } from "@langchain/community/caches/ioredis";
import { Redis } from "ioredis";
import { closeAtEnd } from "../../core/closers.js";
import { firstLineOf } from "../../core/errors.js";
import { lazyCrypto } from "../hash.js";
/** Where the replies live in Redis (the occurrence counters are `sqlmend:uses:…`): all of sqlmend's keys match `sqlmend:*`. */
export const REPLY_PREFIX = "sqlmend:reply:";
export const isRedisLocation = (spec) => !!spec && /^rediss?:\/\//i.test(spec);
export class RedisReplyStore {
    url;
    warn;
    file;
    broken;
    client;
    replies;
    constructor(url, warn) {
        this.url = url;
        this.warn = warn;
        const shown = new URL(url);
        if (shown.password)
            shown.password = "***";
        this.file = shown.toString();
        // Few retries and an offline queue that fails fast: a server that is gone must not hold a model call.
        this.client = new Redis(url, { maxRetriesPerRequest: 1, connectTimeout: 5_000, enableOfflineQueue: true, lazyConnect: false });
        this.client.on("error", () => { }); // reported by the call that fails
        this.replies = new RedisCache(this.client);
        // Every key under the documented `sqlmend:` prefix (LangChain's default is a bare hash, which `sqlmend:*` misses).
        this.replies.makeDefaultKeyEncoder((...parts) => `${REPLY_PREFIX}${defaultHashKeyEncoder(...parts)}`);
        this.unregister = closeAtEnd(() => this.close());
    }
    unregister;
    slot(occurrence) {
        return `sqlmend:occurrence:${occurrence}`;
    }
    async get(key, occurrence) {
        if (this.broken)
            return undefined;
        try {
            const found = (await this.replies.lookup(key, this.slot(occurrence)));
            return found?.[0] ? JSON.parse(found[0].text) : undefined;
        }
        catch (error) {
            this.fail(error);
            return undefined;
        }
    }
    async nextOccurrence(scope, key) {
        if (this.broken)
            return undefined;
        try {
            const counter = `sqlmend:uses:${lazyCrypto().createHash("sha256").update(`${scope}\u0000${key}`).digest("hex")}`;
            return (await this.client.incr(counter)) - 1;
        }
        catch (error) {
            this.fail(error);
            return undefined;
        }
    }
    async put(key, occurrence, entry, overwrite) {
        if (this.broken)
            return false;
        try {
            // First writer wins, as in the SQLite store (refresh overwrites).
            if (!overwrite && (await this.replies.lookup(key, this.slot(occurrence))))
                return false;
            await this.replies.update(key, this.slot(occurrence), [{ text: JSON.stringify(entry) }]);
            return true;
        }
        catch (error) {
            this.fail(error);
            return false;
        }
    }
    fail(error) {
        if (this.broken)
            return; // calls in flight when it failed: said once
        this.broken = `response cache ${this.file} failed (${firstLineOf(error)}): running without it`;
        this.warn(this.broken);
    }
    close() {
        this.unregister();
        if (openStores.get(this.url) === this)
            openStores.delete(this.url);
        this.client.disconnect();
    }
}
const openStores = new Map();
/** One connection per Redis URL while a command runs (its providers share it); the launcher closes it at the end. */
export function openRedisStore(url, warn) {
    let store = openStores.get(url);
    if (!store || store.broken) {
        store = new RedisReplyStore(url, warn);
        openStores.set(url, store);
    }
    return store;
}
