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
import Database from "better-sqlite3";
import { BaseCache } from "@langchain/core/caches";
import { AIMessage, type AIMessageFields } from "@langchain/core/messages";
import type { ChatGeneration, Generation } from "@langchain/core/outputs";
import { AsyncLocalStorageProviderSingleton } from "@langchain/core/singletons";
import { firstLineOf } from "../../core/errors.ts";
import { openCacheFile, StaleCacheFile } from "../sqlite/shared-file.ts";
import { lazyCrypto } from "../hash.ts";

import { type CacheMode, type CacheStats, emptyCacheStats } from "./cache-modes.ts";
export { CACHE_MODES, type CacheMode, type CacheStats, cacheLine } from "./cache-modes.ts";

export { RESPONSE_CACHE_FILE } from "./cache-files.ts";

/** What a cache hit says about itself, in the reply's `response_metadata.sqlmendCache` (callModel records it). */
export interface CacheHitNote {
  hit: true;
  /** The tokens the stored reply cost when it was made: saved now, never counted as spent. */
  inputTokens: number;
  outputTokens: number;
}

/** What a store keeps per request and occurrence. */
export interface StoredEntry {
  reply: StoredReply;
  inputTokens: number;
  outputTokens: number;
  model?: string;
}

/** Where replies live: this file's SQLite store, or Redis (`./redis-store.ts`); sync or async. */
export interface ReplyStore {
  /** Where it is, for messages and the report. */
  readonly file: string;
  /** Why it stopped (later calls are misses, writes dropped). */
  broken: string | undefined;
  get(key: string, occurrence: number): StoredEntry | undefined | Promise<StoredEntry | undefined>;
  nextOccurrence(scope: string, key: string): number | undefined | Promise<number | undefined>;
  put(key: string, occurrence: number, entry: StoredEntry, overwrite: boolean): boolean | Promise<boolean>;
  close(): void;
}

interface StoredChoice {
  text: string;
  message: { content: AIMessageFields["content"]; tool_calls?: AIMessageFields["tool_calls"]; additional_kwargs?: Record<string, unknown>; response_metadata?: Record<string, unknown> };
}

interface StoredReply extends StoredChoice {
  /** The other choices of a request for several (`n`), in order; absent for one. */
  more?: StoredChoice[];
}

/** How long a process waits for another's lock on the file, at open and at each lookup or write. */
const BUSY_MS = 10_000;
const SCHEMA = `CREATE TABLE IF NOT EXISTS responses (
  key TEXT NOT NULL, occurrence INTEGER NOT NULL, model TEXT NOT NULL, reply TEXT NOT NULL,
  input_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL, created_at TEXT NOT NULL,
  PRIMARY KEY (key, occurrence)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS uses (scope TEXT NOT NULL, key TEXT NOT NULL, next INTEGER NOT NULL, PRIMARY KEY (scope, key)) WITHOUT ROWID`;
const RESPONSE_COLUMNS = "key,occurrence,model,reply,input_tokens,output_tokens,created_at";

/** The SQLite file behind the cache: opened once per path in a process, shared by every provider. */
export class ResponseStore implements ReplyStore {
  private db: Database.Database | undefined;
  private getStmt!: Database.Statement;
  private putStmt!: Database.Statement;
  private replaceStmt!: Database.Statement;
  private useStmt!: Database.Statement;
  /** Why the store stopped (set once; later calls are misses and writes are dropped). */
  broken: string | undefined;

  constructor(
    readonly file: string,
    private readonly warn: (line: string) => void,
  ) {
    const opened = openCacheFile(
      file,
      {
        what: "response cache",
        busyMs: BUSY_MS,
        schema: SCHEMA,
        verify: (db) => {
          const columns = (db.prepare("SELECT name FROM pragma_table_info('responses')").pluck().all() as string[]).join(",");
          if (columns !== RESPONSE_COLUMNS) throw new StaleCacheFile(`table responses has columns ${columns}, not ${RESPONSE_COLUMNS}`);
          this.useStmt = db.prepare("INSERT INTO uses VALUES (?, ?, 1) ON CONFLICT (scope, key) DO UPDATE SET next = next + 1 RETURNING next - 1 AS occurrence");
          this.getStmt = db.prepare("SELECT reply, input_tokens, output_tokens FROM responses WHERE key = ? AND occurrence = ?");
          // First writer wins (two processes that missed at once both keep their own reply; the file keeps one).
          this.putStmt = db.prepare("INSERT OR IGNORE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?)");
          this.replaceStmt = db.prepare("INSERT OR REPLACE INTO responses VALUES (?, ?, ?, ?, ?, ?, ?)");
          // Reading a page proves the file is a database (a garbage file fails here, not at the first lookup).
          this.getStmt.get("", -1);
        },
      },
      warn,
    );
    this.db = opened.db;
    this.broken = opened.broken;
  }

  get(key: string, occurrence: number): StoredEntry | undefined {
    if (this.broken || !this.db) return undefined;
    try {
      const row = this.getStmt.get(key, occurrence) as { reply: string; input_tokens: number; output_tokens: number } | undefined;
      return row && { reply: JSON.parse(row.reply) as StoredReply, inputTokens: row.input_tokens, outputTokens: row.output_tokens };
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  /** The next occurrence number of `key` in `scope` (a thread), counted in the file; undefined when the store failed. */
  nextOccurrence(scope: string, key: string): number | undefined {
    if (this.broken || !this.db) return undefined;
    try {
      return (this.useStmt.get(scope, key) as { occurrence: number }).occurrence;
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  put(key: string, occurrence: number, entry: StoredEntry, overwrite: boolean): boolean {
    if (this.broken || !this.db) return false;
    try {
      const info = (overwrite ? this.replaceStmt : this.putStmt).run(key, occurrence, entry.model ?? "", JSON.stringify(entry.reply), entry.inputTokens, entry.outputTokens, new Date().toISOString());
      return info.changes > 0;
    } catch (error) {
      this.fail(error);
      return false;
    }
  }

  private fail(error: unknown) {
    this.broken = `response cache ${this.file} failed (${firstLineOf(error)}): running without it`;
    this.warn(this.broken);
  }

  close() {
    try {
      this.db?.close();
    } catch {
      /* closing is best effort */
    }
    this.db = undefined;
  }
}

const stores = new Map<string, ResponseStore>();

/** The store for `file`, opened once per process (commands run in one process share it). */
export function openResponseStore(file: string, warn: (line: string) => void): ResponseStore {
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
  for (const store of stores.values()) store.close();
  stores.clear();
}

/** The occurrence scope of the current call: its graph thread from LangChain's run config, "" outside a graph. */
function currentScope(): string {
  const config = AsyncLocalStorageProviderSingleton.getRunnableConfig() as { configurable?: Record<string, unknown> } | undefined;
  const thread = config?.configurable?.thread_id;
  return typeof thread === "string" || typeof thread === "number" ? String(thread) : "";
}

/**
 * One provider's view of the store: its mode and its statistics. `forEndpoint` gives the `BaseCache` a chat model
 * uses: keyed by the model and its parameters (LangChain's, without the API key and the URL) and the endpoint alias.
 */
export class ResponseCache {
  readonly stats: CacheStats;
  /** Next occurrence per scope and key, for calls outside a graph and in read mode (this process). */
  private readonly next = new Map<string, number>();
  /** Occurrences looked up and missed, waiting for their reply, per scope and key (smallest first). */
  private readonly pending = new Map<string, number[]>();

  constructor(
    private readonly store: ReplyStore,
    readonly mode: Exclude<CacheMode, "off">,
  ) {
    this.stats = emptyCacheStats(mode, store.file);
  }

  /**
   * `alias`: the endpoint's name when the user keeps servers apart (else none: the key is the model and its
   * parameters, so shards on per-node servers and a server moved to another port share replies). `legacyEndpoint`:
   * the URL that keyed replies stored by earlier versions, read on a miss so reruns are still served.
   */
  forEndpoint(alias: string | undefined, legacyEndpoint?: string): BaseCache<Generation[]> {
    return new EndpointCache(this, alias, legacyEndpoint);
  }

  /** @internal */
  keyOf(endpoint: string, prompt: string, llmKey: string): string {
    // LangChain's parameters include the API key: it does not change the reply (a new key must not empty the cache).
    const params = llmKey.replace(/(^|,)apiKey:"(?:[^"\\]|\\.)*"/, "$1");
    return lazyCrypto().createHash("sha256").update(`${endpoint}\u0000${params}\u0000${prompt}`).digest("hex");
  }

  /** @internal */
  async lookup(key: string, legacyKey?: string): Promise<Generation[] | null> {
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
      if (this.store.broken) this.stats.disabled = this.store.broken;
      return null;
    }
    this.stats.hits++;
    this.stats.savedInputTokens += found.inputTokens;
    this.stats.savedOutputTokens += found.outputTokens;
    const note: CacheHitNote = { hit: true, inputTokens: found.inputTokens, outputTokens: found.outputTokens };
    // A request for several choices (`n`) stored them all: each comes back, in order.
    return [found.reply, ...(found.reply.more ?? [])].map(({ text, message }) => {
      const ai = new AIMessage({
        content: message.content,
        tool_calls: message.tool_calls ?? [],
        additional_kwargs: message.additional_kwargs ?? {},
        response_metadata: { ...message.response_metadata, sqlmendCache: note },
      });
      return { text, message: ai } as ChatGeneration;
    });
  }

  /** @internal */
  async update(key: string, model: string, value: Generation[]) {
    const slot = `${currentScope()}\u0000${key}`;
    const waiting = this.pending.get(slot);
    const occurrence = waiting?.shift();
    if (waiting && !waiting.length) this.pending.delete(slot);
    if (occurrence === undefined || this.mode === "read") return;
    const generation = value[0] as ChatGeneration | undefined;
    const message = generation?.message as AIMessage | undefined;
    if (!generation || !message) return;
    // One request's usage (each choice of an `n` request carries the whole request's, counted once).
    const usage = message.usage_metadata;
    const stored = (g: ChatGeneration): StoredChoice => {
      const m = g.message as AIMessage;
      return {
        text: g.text,
        message: {
          content: m.content,
          ...(m.tool_calls?.length ? { tool_calls: m.tool_calls } : {}),
          ...(Object.keys(m.additional_kwargs ?? {}).length ? { additional_kwargs: m.additional_kwargs } : {}),
          response_metadata: m.response_metadata ?? {},
        },
      };
    };
    const more = (value.slice(1) as ChatGeneration[]).filter((g) => g.message).map(stored);
    const reply: StoredReply = { ...stored(generation), ...(more.length ? { more } : {}) };
    if (await this.store.put(key, occurrence, { reply, inputTokens: usage?.input_tokens ?? 0, outputTokens: usage?.output_tokens ?? 0, model }, this.mode === "refresh")) this.stats.writes++;
    if (this.store.broken) this.stats.disabled = this.store.broken;
  }
}

/** LangChain's side of the cache: prompt (the messages as text) and llmKey (the call's parameters). */
class EndpointCache extends BaseCache<Generation[]> {
  private readonly endpoint: string;

  constructor(
    private readonly cache: ResponseCache,
    alias: string | undefined,
    private readonly legacyEndpoint?: string,
  ) {
    super();
    // Never a URL: earlier versions keyed by the URL, and an alias must not read those as its own.
    this.endpoint = alias === undefined ? "" : `alias:${alias}`;
  }

  override async lookup(prompt: string, llmKey: string): Promise<Generation[] | null> {
    const legacy = this.legacyEndpoint !== undefined && this.endpoint === "" ? this.cache.keyOf(this.legacyEndpoint, prompt, llmKey) : undefined;
    return this.cache.lookup(this.cache.keyOf(this.endpoint, prompt, withoutUrl(llmKey)), legacy);
  }

  override async update(prompt: string, llmKey: string, value: Generation[]): Promise<void> {
    await this.cache.update(this.cache.keyOf(this.endpoint, prompt, withoutUrl(llmKey)), /(?:^|,)model:"([^"]*)"/.exec(llmKey)?.[1] ?? "", value);
  }
}

/** LangChain's parameters name the server's URL (`baseURL`): not part of the key (see `forEndpoint`). */
const withoutUrl = (llmKey: string) => llmKey.replace(/(^|,)baseURL:"(?:[^"\\]|\\.)*"/, "$1");
