/**
 * The persistent response cache: model replies in `<data dir>/responses.sqlite`, plugged into every chat model through
 * LangChain's cache interface (`BaseCache`, passed as `cache` to ChatOpenAI).
 *
 * Key: the endpoint, LangChain's serialized call parameters (model, temperature, max tokens, response_format with its
 * JSON schema, bound tools and tool_choice: everything that changes the reply) and the messages — plus an occurrence
 * index, so n identical requests that sample (temperature > 0) stay n samples.
 *
 * The occurrence rule: identical requests are numbered per graph thread (one question's run, from LangChain's run
 * config), and the k-th identical request of a thread gets the k-th stored reply — whatever the step, so a loop that
 * sends the same prompt again gets a new sample, as it would from the model. Numbers are kept in the file (table `uses`,
 * by thread id and key), so concurrency across questions does not change which reply a call gets, and a resumed thread
 * (same thread id) goes on counting where it stopped; a fresh run has fresh thread ids and counts from 0, which is
 * what makes a rerun hit. Parallel identical requests of one thread are numbered in the order they reach the cache. A
 * step interrupted by a kill reruns with new numbers (misses: new samples, never a reply used twice). A failed call
 * stores nothing (its number stays unused). Calls outside a graph are numbered per process; `read` mode numbers in
 * memory only (it writes nothing), so a resumed thread there counts from 0 again.
 *
 * Modes: on (read and write), read (use hits, never write), refresh (never read, overwrite), off (no cache).
 * Concurrent processes share the file (WAL, busy timeout; the first writer of a key and occurrence wins, refresh
 * overwrites). A damaged file is renamed aside with a warning and a new one started; an error later turns the cache
 * off for the rest of the run, with a warning, never failing a call.
 */
import path from "node:path";
import { BaseCache } from "@langchain/core/caches";
import { AIMessage } from "@langchain/core/messages";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { firstLineOf } from "../../core/errors.js";
import { openCacheFile, StaleCacheFile } from "../sqlite/shared-file.js";
import { lazyCrypto } from "../hash.js";
import { emptyCacheStats } from "./cache-modes.js";
export { CACHE_MODES, cacheLine } from "./cache-modes.js";
export { RESPONSE_CACHE_FILE } from "./cache-files.js";
/** How long a process waits for another's lock on the file, at open and at each lookup or write. */
const BUSY_MS = 10_000;
const SCHEMA = `CREATE TABLE IF NOT EXISTS responses (
  key TEXT NOT NULL, occurrence INTEGER NOT NULL, model TEXT NOT NULL, reply TEXT NOT NULL,
  input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, created_at TEXT NOT NULL,
  PRIMARY KEY (key, occurrence)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS uses (scope TEXT NOT NULL, key TEXT NOT NULL, next INTEGER NOT NULL, PRIMARY KEY (scope, key)) WITHOUT ROWID`;
const RESPONSE_COLUMNS = "key,occurrence,model,reply,input_tokens,output_tokens,created_at";
/** The SQLite file behind the cache: opened once per path in a process, shared by every provider. */
export class ResponseStore {
    file;
    warn;
    db;
    getStmt;
    putStmt;
    replaceStmt;
    useStmt;
    /** Why the store stopped (set once; later calls are misses and writes are dropped). */
    broken;
    constructor(file, warn) {
        this.file = file;
        this.warn = warn;
        const opened = openCacheFile(file, {
            what: "response cache",
            busyMs: BUSY_MS,
            schema: SCHEMA,
            verify: (db) => {
                const columns = db.prepare("SELECT name FROM pragma_table_info('responses')").pluck().all().join(",");
                if (columns !== RESPONSE_COLUMNS)
                    throw new StaleCacheFile(`table responses has columns ${columns}, not ${RESPONSE_COLUMNS}`);
                this.useStmt = db.prepare("INSERT INTO uses VALUES (?, ?, 1) ON CONFLICT (scope, key) DO UPDATE SET next = next + 1 RETURNING next - 1 AS occurrence");
                this.getStmt = db.prepare("SELECT reply, input_tokens, output_tokens FROM responses WHERE key = ? AND occurrence = ?");
                // First writer wins (two processes that missed at once both keep their own reply; the file keeps one).
                this.putStmt = db.prepare("INSERT OR IGNORE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?)");
                this.replaceStmt = db.prepare("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?)");
                // Reading a page proves the file is a database (a garbage file fails here, not at the first lookup).
                this.getStmt.get("", -1);
            },
        }, warn);
        this.db = opened.db;
        this.broken = opened.broken;
    }
    get(key, occurrence) {
        if (this.broken || !this.db)
            return undefined;
        try {
            const row = this.getStmt.get(key, occurrence);
            return row && { reply: JSON.parse(row.reply), inputTokens: row.input_tokens, outputTokens: row.output_tokens };
        }
        catch (error) {
            this.fail(error);
            return undefined;
        }
    }
    /** The next occurrence number of `key` in `scope` (a thread), counted in the file; undefined when the store failed. */
    nextOccurrence(scope, key) {
        if (this.broken || !this.db)
            return undefined;
        try {
            return this.useStmt.get(scope, key).occurrence;
        }
        catch (error) {
            this.fail(error);
            return undefined;
        }
    }
    put(key, occurrence, entry, overwrite) {
        if (this.broken || !this.db)
            return false;
        try {
            const info = (overwrite ? this.replaceStmt : this.putStmt).run(key, occurrence, entry.model ?? "", JSON.stringify(entry.reply), entry.inputTokens, entry.outputTokens, new Date().toISOString());
            return info.changes > 0;
        }
        catch (error) {
            this.fail(error);
            return false;
        }
    }
    fail(error) {
        this.broken = `response cache ${this.file} failed (${firstLineOf(error)}): running without it`;
        this.warn(this.broken);
    }
    close() {
        try {
            this.db?.close();
        }
        catch {
            /* closing is best effort */
        }
        this.db = undefined;
    }
}
const stores = new Map();
/** The store for `file`, opened once per process (commands run in one process share it). */
export function openResponseStore(file, warn) {
    const resolved = path.resolve(file);
    let store = stores.get(resolved);
    if (!store || store.broken) {
        store = new ResponseStore(resolved, warn);
        stores.set(resolved, store);
    }
    return store;
}
/** Closes every store this process opened (tests that remove their temporary home). */
export function closeResponseStores() {
    for (const store of stores.values())
        store.close();
    stores.clear();
}
/** The occurrence scope of the current call: its graph thread from LangChain's run config, "" outside a graph. */
function currentScope() {
    const config = AsyncLocalStorageProviderSingleton.getRunnableConfig();
    const thread = config?.configurable?.thread_id;
    return typeof thread === "string" || typeof thread === "number" ? String(thread) : "";
}
/**
 * One provider's view of the store: its mode and its statistics. `forEndpoint` gives the `BaseCache` a chat model
 * uses: keyed by the model and its parameters (LangChain's, without the API key and the URL) and the endpoint alias.
 */
export class ResponseCache {
    store;
    mode;
    stats;
    /** Next occurrence per scope and key, for calls outside a graph and in read mode (this process). */
    next = new Map();
    /** Occurrences looked up and missed, waiting for their reply, per scope and key (smallest first). */
    pending = new Map();
    constructor(store, mode) {
        this.store = store;
        this.mode = mode;
        this.stats = emptyCacheStats(mode, store.file);
    }
    /**
     * `alias`: the endpoint's name when the user keeps servers apart (else none: the key is the model and its
     * parameters, so shards on per-node servers and a server moved to another port share replies). `legacyEndpoint`:
     * the URL that keyed replies stored by earlier versions, read on a miss so reruns are still served.
     */
    forEndpoint(alias, legacyEndpoint) {
        return new EndpointCache(this, alias, legacyEndpoint);
    }
    /** @internal */
    keyOf(endpoint, prompt, llmKey) {
        // LangChain's parameters include the API key: it does not change the reply (a new key must not empty the cache).
        const params = llmKey.replace(/(^|,)apiKey:"(?:[^"\\]|\\.)*"/, "$1");
        return lazyCrypto().createHash("sha256").update(`${endpoint}\u0000${params}\u0000${prompt}`).digest("hex");
    }
    /** @internal */
    async lookup(key, legacyKey) {
        const scope = currentScope();
        const slot = `${scope}\u0000${key}`;
        let occurrence = scope && this.mode !== "read" ? await this.store.nextOccurrence(scope, key) : undefined;
        if (occurrence === undefined) {
            occurrence = this.next.get(slot) ?? 0;
            this.next.set(slot, occurrence + 1);
        }
        this.stats.lookups++;
        const found = this.mode === "refresh" ? undefined : ((await this.store.get(key, occurrence)) ?? (legacyKey ? await this.store.get(legacyKey, occurrence) : undefined));
        if (!found) {
            const waiting = this.pending.get(slot) ?? [];
            waiting.push(occurrence);
            this.pending.set(slot, waiting);
            if (this.store.broken)
                this.stats.disabled = this.store.broken;
            return null;
        }
        this.stats.hits++;
        this.stats.savedInputTokens += found.inputTokens;
        this.stats.savedOutputTokens += found.outputTokens;
        const note = { hit: true, inputTokens: found.inputTokens, outputTokens: found.outputTokens };
        const { message } = found.reply;
        const ai = new AIMessage({
            content: message.content,
            tool_calls: message.tool_calls ?? [],
            additional_kwargs: message.additional_kwargs ?? {},
            response_metadata: { ...message.response_metadata, sqlmendCache: note },
        });
        return [{ text: found.reply.text, message: ai }];
    }
    /** @internal */
    async update(key, model, value) {
        const slot = `${currentScope()}\u0000${key}`;
        const waiting = this.pending.get(slot);
        const occurrence = waiting?.shift();
        if (waiting && !waiting.length)
            this.pending.delete(slot);
        if (occurrence === undefined || this.mode === "read")
            return;
        const generation = value[0];
        const message = generation?.message;
        if (!generation || !message)
            return;
        const usage = message.usage_metadata;
        const reply = {
            text: generation.text,
            message: {
                content: message.content,
                ...(message.tool_calls?.length ? { tool_calls: message.tool_calls } : {}),
                ...(Object.keys(message.additional_kwargs ?? {}).length ? { additional_kwargs: message.additional_kwargs } : {}),
                response_metadata: message.response_metadata ?? {},
            },
        };
        if (await this.store.put(key, occurrence, { reply, inputTokens: usage?.input_tokens ?? 0, outputTokens: usage?.output_tokens ?? 0, model }, this.mode === "refresh"))
            this.stats.writes++;
        if (this.store.broken)
            this.stats.disabled = this.store.broken;
    }
}
/** LangChain's side of the cache: prompt (the messages as text) and llmKey (the call's parameters). */
class EndpointCache extends BaseCache {
    cache;
    legacyEndpoint;
    endpoint;
    constructor(cache, alias, legacyEndpoint) {
        super();
        this.cache = cache;
        this.legacyEndpoint = legacyEndpoint;
        // Never a URL: earlier versions keyed by the URL, and an alias must not read those as its own.
        this.endpoint = alias === undefined ? "" : `alias:${alias}`;
    }
    async lookup(prompt, llmKey) {
        const legacy = this.legacyEndpoint !== undefined && this.endpoint === "" ? this.cache.keyOf(this.legacyEndpoint, prompt, llmKey) : undefined;
        return this.cache.lookup(this.cache.keyOf(this.endpoint, prompt, withoutUrl(llmKey)), legacy);
    }
    async update(prompt, llmKey, value) {
        await this.cache.update(this.cache.keyOf(this.endpoint, prompt, withoutUrl(llmKey)), /(?:^|,)model:"([^"]*)"/.exec(llmKey)?.[1] ?? "", value);
    }
}
/** LangChain's parameters name the server's URL (`baseURL`): not part of the key (see `forEndpoint`). */
const withoutUrl = (llmKey) => llmKey.replace(/(^|,)baseURL:"(?:[^"\\]|\\.)*"/, "$1");
