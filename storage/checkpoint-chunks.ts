/**
 * Light checkpoints for every graph: a serializer for SqliteSaver (format "json+chunks") that stores what repeats only
 * once, in a `chunks` table (`id INTEGER PRIMARY KEY`: references are small integers that VACUUM keeps).
 *
 * LangGraph writes the whole state at every step, and prompts repeat the schema text, which the state holds too.
 * - A JSON subtree of at least REF_MIN characters goes to a chunk, stored once by content, and is written {"$r": id}.
 *   A process knows its own chunks by their text; a large one is also looked for among other processes' chunks (a
 *   64-bit hash, indexed, confirmed by comparing the content).
 * - A string of at least SPLIT_MIN characters is cut at line ends chosen by the lines' content (not their position),
 *   so the same schema text inside different prompts and in `schemaText` gives the same pieces:
 *   {"$s": [piece, ...]}, a piece being a chunk id or a short inline string.
 * - An object of the state whose only key is "$r", "$s" or "$e" is written {"$e": object}: state cannot forge
 *   references.
 * - A checkpoint (what is left once its values are references) is a frame: a chunk deflated with the thread's
 *   previous frame as the preset dictionary, so it costs what changed. A frame names its dictionary frame; every
 *   FRAME_CHAIN frames (and in a new process) a frame stands alone, which bounds a read to FRAME_CHAIN inflates.
 *   The checkpoint row holds the frame's id.
 * Metadata stays plain JSON (SqliteSaver filters it with SQL); pending writes stay text (SqliteSaver reads them as
 * TEXT). Rows of the previous format ("json+blobs", ./checkpoint-blobs.ts) and plain "json" rows are still read.
 */
import { createHash } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type Database from "better-sqlite3";
import type { RunnableConfig } from "@langchain/core/runnables";
import { JsonPlusSerializer, TASKS, WRITES_IDX_MAP } from "@langchain/langgraph-checkpoint";
import type { Checkpoint, CheckpointListOptions, CheckpointMetadata, CheckpointTuple, PendingWrite, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
import { DamagedCheckpointError, firstLineOf, isDamagedCheckpoint, UserError } from "../core/errors.ts";
import { ownCopy } from "../core/strings.ts";
import { BLOB_TYPE, BlobSerializer } from "./checkpoint-blobs.ts";

export const CHUNK_TYPE = "json+chunks";
/** Subtrees at least this long (as JSON, their own large parts already references) become chunks: a reference costs
 * about 10 characters here and a chunk row about 25 bytes, and a value that persists is then written once, not in every
 * write and frame that holds it. */
export const REF_MIN = 64;
/** Strings at least this long are cut into pieces. */
export const SPLIT_MIN = 1024;
/** A piece ends at a chosen line once it is this long... */
const PIECE_MIN = 256;
/** ...or at the first line end past this. */
const PIECE_MAX = 4096;
/** Shorter pieces stay inline. */
const PIECE_INLINE = 64;
/** Chunks at least this long are deflated when that is smaller... */
const DEFLATE_MIN = 256;
/** ...and looked for among the chunks that other processes wrote. */
const LOOKUP_MIN = 256;
/** At most this many frames in a chain (then one stands alone). */
export const FRAME_CHAIN = 16;
/** A reader follows longer chains than this writer makes, but not endless ones. */
const MAX_CHAIN_READ = 1024;

/** Pieces are stored as UTF-8 text, which cannot hold half a surrogate pair; JSON text escapes it. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

const REF = "$r";
const STR = "$s";
const ESC = "$e";
const OURS = new Set([REF, STR, ESC]);

/** A checkpoint row: its frame's id follows this byte (JSON text never starts with it). */
const FRAME_ROW = 1;

export const CHUNKS_TABLE_SQL =
  "CREATE TABLE IF NOT EXISTS chunks (id INTEGER PRIMARY KEY, hash INTEGER NOT NULL, value BLOB NOT NULL);" +
  "CREATE INDEX IF NOT EXISTS chunks_hash ON chunks (hash)";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const isCheckpoint = (v: unknown): v is { [key: string]: unknown } =>
  v !== null && typeof v === "object" && !Array.isArray(v) && "channel_values" in v && "channel_versions" in v;

/**
 * An object JSON.stringify writes as LangGraph's serializer does: its own prototype Object's (or none), no toJSON,
 * not a Send (a class instance, a Set, a Date... are the serializer's to encode).
 */
function isPlainObject(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== "object") return false;
  const proto = Object.getPrototypeOf(v) as unknown;
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== "function" && (v as { lg_name?: unknown }).lg_name !== "Send";
}

/** FNV-1a of a line: whether a piece may end after it depends on the line alone. */
function lineHash(text: string, start: number, end: number): number {
  let h = 0x811c9dc5;
  for (let i = start; i < end; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** A string cut after lines whose hash ends in two zero bits, pieces between PIECE_MIN and PIECE_MAX when lines allow. */
export function splitPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  let lineStart = 0;
  while (lineStart < text.length) {
    const nl = text.indexOf("\n", lineStart);
    const lineEnd = nl < 0 ? text.length : nl + 1;
    const length = lineEnd - start;
    if (lineEnd < text.length && ((length >= PIECE_MIN && (lineHash(text, lineStart, lineEnd) & 3) === 0) || length >= PIECE_MAX)) {
      pieces.push(text.slice(start, lineEnd));
      start = lineEnd;
    }
    lineStart = lineEnd;
  }
  if (start < text.length) pieces.push(text.slice(start));
  return pieces;
}

/**
 * The smallest deflate window that holds a frame, its dictionary and zlib's lookahead (262 bytes): zlib sets up
 * tables the window's size, most of a small frame's cost at the default 32 KiB, and every match stays in reach, so
 * frames are as small. Inflating needs no window size (its default, the largest, reads any).
 */
const windowFor = (bytes: number): number => Math.min(15, Math.max(9, Math.ceil(Math.log2(bytes + 262))));

function varint(n: number): number[] {
  const out: number[] = [];
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80);
    n = Math.floor(n / 0x80);
  }
  out.push(n);
  return out;
}

function readVarint(bytes: Uint8Array, at: number): [value: number, next: number] {
  let value = 0;
  let scale = 1;
  for (let i = at; i < bytes.length && i < at + 8; i++) {
    value += (bytes[i]! & 0x7f) * scale;
    if (bytes[i]! < 0x80) return [value, i + 1];
    scale *= 0x80;
  }
  throw damaged("a truncated chunk reference");
}

const damaged = (what: string) => new DamagedCheckpointError(`checkpoint data is damaged: ${what} (the checkpoint file was changed or truncated)`);

interface Frame {
  id: number;
  dict: Buffer;
  depth: number;
}

/** Threads whose memo use is tracked at once (as many as frames kept: `latest`). */
const TRACKED_THREADS = 4096;

/** Keeps at most `max` entries, dropping the oldest. */
class Bounded<K, V> extends Map<K, V> {
  constructor(private readonly max: number) {
    super();
  }
  override set(key: K, value: V): this {
    if (this.size >= this.max && !this.has(key)) this.delete(this.keys().next().value as K);
    return super.set(key, value);
  }
}

/** Text-keyed memory of at most `budget` characters of keys, dropping the oldest. */
class TextMemo<V> extends Map<string, V> {
  private chars = 0;
  constructor(private readonly budget: number) {
    super();
  }
  override set(key: string, value: V): this {
    if (this.has(key)) return super.set(key, value);
    this.chars += key.length;
    for (const oldest of this.keys()) {
      if (this.chars <= this.budget) break;
      this.delete(oldest);
    }
    return super.set(key, value);
  }
  override delete(key: string): boolean {
    if (!super.delete(key)) return false;
    this.chars -= key.length;
    return true;
  }
}


/** LangGraph's serializer, its synchronous half (dumpsTyped only wraps it in a promise). */
class JsonPlus extends JsonPlusSerializer {
  text(value: unknown): string {
    return new TextDecoder().decode(this._dumps(value));
  }
}

/** Thrown while walking a live value that plain JSON cannot say as LangGraph's serializer does (see `slim`). */
const NOT_PLAIN = Symbol("not plain");
/** Deeper than this, a live value is handed to LangGraph's serializer (which also cuts cycles). */
const MAX_LIVE_DEPTH = 256;
/** How LangGraph's serializer writes undefined (a key or an item left unset), so that it reads back as undefined. */
const UNDEFINED_JSON = JSON.stringify({ lc: 2, type: "undefined" });

export class ChunkSerializer implements SerializerProtocol {
  private readonly inner = new JsonPlus();
  private readonly db: Database.Database;
  private readonly insert: Database.Statement;
  private readonly byHash: Database.Statement;
  private readonly byId: Database.Statement;
  /** Chunk ids by content, for what this process wrote or found: an unchanged value costs a map lookup, no hashing. */
  private readonly known = new TextMemo<number>(8_000_000);
  /** Long strings and their pieces' encoding (the schema text comes back at every step). */
  private readonly splits = new TextMemo<string>(8_000_000);
  /** What the current value's writes taught, kept once they commit (a rolled-back chunk must not be referred to). */
  private learnt: (() => void)[] = [];
  /** Chunks of the current transaction. */
  private readonly fresh = new Map<string, number>();
  /** Runs a body in one transaction (a savepoint inside another). */
  private readonly transaction: (body: () => unknown) => unknown;
  /** Frame texts by id, for reads (a history reads each chain once). */
  private readonly frames = new Bounded<number, Buffer>(512);
  /** The latest frame written per thread and namespace (the next one's dictionary); released when the thread ends. */
  private readonly latest = new Bounded<string, Frame>(4096);
  /** The thread whose values are being encoded (`useThread`), the memo keys each thread used, and how many threads use each. */
  private owner: string | undefined;
  private readonly usedBy = new Map<string, Set<string>>();
  private readonly users = new Map<string, number>();
  private legacy: BlobSerializer | undefined;
  private readonly encoder = new TextEncoder();
  private readonly decoder = new TextDecoder();
  constructor(db: Database.Database) {
    this.db = db;
    db.exec(CHUNKS_TABLE_SQL);
    this.insert = db.prepare("INSERT INTO chunks (hash, value) VALUES (?, ?)");
    this.byHash = db.prepare("SELECT id, value FROM chunks WHERE hash = ?");
    this.byId = db.prepare("SELECT value FROM chunks WHERE id = ?").pluck();
    this.transaction = db.transaction((body: () => unknown) => body());
  }

  /** A value as a row of its own (no thread: a checkpoint is a plain row, not a frame); the saver calls `encodeIn`. */
  async dumpsTyped(data: unknown): Promise<[string, Uint8Array]> {
    if (data instanceof Uint8Array) return ["bytes", data];
    return this.inTransaction(() => this.encodeIn(data, undefined));
  }

  /**
   * Runs `body` (whose values `encodeIn` writes) in one transaction with the rows it adds itself: a checkpoint, its
   * chunks and its frame commit together, once. What it taught (chunk ids, the thread's latest frame) is kept once it
   * commits: a rolled-back chunk must not be referred to, and inside someone else's transaction nothing is sure.
   */
  inTransaction<T>(body: () => T): T {
    const owned = !this.db.inTransaction;
    this.learnt = [];
    this.fresh.clear();
    try {
      const out = this.transaction(body) as T;
      if (owned) for (const keep of this.learnt) keep();
      return out;
    } finally {
      this.learnt = [];
      this.fresh.clear();
    }
  }

  /**
   * A value's row bytes, its chunks written (inside `inTransaction`). The value is read as it is now, in this call:
   * the saver encodes at once, so a later change to the state cannot reach a checkpoint already taken.
   */
  encodeIn(value: unknown, thread: string | undefined): [string, Uint8Array] {
    // Within put (a thread is set), what is not the checkpoint is its metadata: plain JSON, for SqliteSaver's filters.
    if (!isCheckpoint(value)) return [CHUNK_TYPE, this.encoder.encode(this.slimValue(value, thread === undefined))];
    const text = this.slimCheckpoint(value);
    if (thread === undefined) return [CHUNK_TYPE, this.encoder.encode(text)];
    const row = Buffer.from(text);
    const previous = this.latest.get(thread);
    const base = previous && previous.depth < FRAME_CHAIN - 1 ? previous : undefined;
    const payload = deflateRawSync(row, { windowBits: windowFor(row.length + (base?.dict.length ?? 0)), ...(base ? { dictionary: base.dict } : {}) });
    // Frames are never shared: hash 0, no lookup.
    const id = this.write(0, Buffer.concat([Buffer.from(varint(base?.id ?? 0)), payload]));
    const depth = base ? base.depth + 1 : 0;
    this.learnt.push(() => this.latest.set(thread, { id, dict: row, depth }));
    return [CHUNK_TYPE, Uint8Array.from([FRAME_ROW, ...varint(id)])];
  }

  /**
   * The thread (its id) the next values belong to, until another is named: what they teach the memo is that thread's,
   * released with it (`releaseThread`) unless another thread uses it later.
   */
  useThread(threadId: string | undefined): void {
    this.owner = threadId;
  }

  /**
   * A finished thread's caches released: its frames' dictionaries (one per namespace) and the memo entries no running
   * thread used after it. Only speed is lost if it goes on later (its next frame starts a new chain, a value is
   * hashed once more), never data: memory stays flat over a run of thousands of questions.
   */
  releaseThread(threadId: string): void {
    const prefix = `${threadId}\u0000`;
    for (const key of [...this.latest.keys()]) if (key === threadId || key.startsWith(prefix)) this.latest.delete(key);
    if (this.owner === threadId) this.owner = undefined;
    this.forget(threadId, true);
  }

  /** Stops tracking a thread's memo use; `drop`: the entries no other tracked thread uses leave the memo. */
  private forget(threadId: string, drop: boolean): void {
    const keys = this.usedBy.get(threadId);
    this.usedBy.delete(threadId);
    for (const key of keys ?? []) {
      const left = (this.users.get(key) ?? 1) - 1;
      if (left > 0) {
        this.users.set(key, left);
        continue;
      }
      this.users.delete(key);
      if (!drop) continue;
      this.known.delete(key);
      this.splits.delete(key);
    }
  }

  /** Entries the caches hold now (tests and benches: a finished thread's must go). */
  cacheSizes(): { latest: number; known: number; splits: number; threads: number } {
    return { latest: this.latest.size, known: this.known.size, splits: this.splits.size, threads: this.usedBy.size };
  }

  /** Marks a memo key as used by the current thread (kept while any thread that used it runs). */
  private used(key: string): void {
    const owner = this.owner;
    if (owner === undefined) return;
    let keys = this.usedBy.get(owner);
    if (!keys) {
      // Threads nobody releases (a library user's) are tracked up to the frames' bound: the oldest is forgotten (its
      // memo entries stay, under the memo's own budget), so tracking never grows without end.
      const oldest = this.usedBy.size >= TRACKED_THREADS ? this.usedBy.keys().next().value : undefined;
      if (oldest !== undefined) this.forget(oldest, false);
      this.usedBy.set(owner, (keys = new Set()));
    }
    if (keys.has(key)) return;
    keys.add(key);
    this.users.set(key, (this.users.get(key) ?? 0) + 1);
  }

  /** Adds a chunk row (inside `inTransaction`). */
  private write(hash: bigint | number, value: string | Buffer): number {
    return Number(this.insert.run(hash, value).lastInsertRowid);
  }

  async loadsTyped(type: string, data: Uint8Array | string): Promise<unknown> {
    if (type !== CHUNK_TYPE && type !== BLOB_TYPE) return this.inner.loadsTyped(type, data);
    // Whatever a damaged file holds, the reader says so in one line.
    try {
      if (type === BLOB_TYPE) return await (this.legacy ??= new BlobSerializer(this.db)).loadsTyped(type, data);
      let text: string;
      if (typeof data === "string") text = data;
      else if (data[0] === FRAME_ROW) text = this.frameText(readVarint(data, 1)[0], 0).toString("utf8");
      else text = this.decoder.decode(data);
      if (!text.includes('"$')) return await this.inner.loadsTyped("json", text);
      return await this.inner.loadsTyped("json", JSON.stringify(this.expand(JSON.parse(text) as Json, Infinity)));
    } catch (error) {
      if (error instanceof UserError) throw error;
      throw damaged(`a row that does not read (${firstLineOf(error)})`);
    }
  }

  /** A checkpoint's JSON with its channel values' large parts as references; the rest (versions) stays for the delta. */
  private slimCheckpoint(value: { [key: string]: unknown }): string {
    const fields = Object.keys(value).map((k) => {
      const v = value[k];
      const inner =
        k === "channel_values" && isPlainObject(v)
          ? `{${Object.keys(v).map((c) => `${JSON.stringify(c)}:${this.slimValue(v[c], true)}`).join(",")}}`
          : this.slimValue(v, false);
      return `${JSON.stringify(k)}:${inner}`;
    });
    return `{${fields.join(",")}}`;
  }

  /**
   * `slim` of a live value. Plain data (strings, numbers, booleans, null, arrays, plain objects) is walked as it is:
   * JSON.stringify says it as LangGraph's serializer would (undefined as its record), without writing and parsing
   * that text. A value with anything else in it (a message, a Set, a cycle) goes through LangGraph's serializer first.
   */
  private slimValue(value: unknown, refs: boolean): string {
    try {
      return this.slim(value, refs, 0);
    } catch (error) {
      if (error !== NOT_PLAIN) throw error;
      return this.slim(JSON.parse(this.inner.text(value)) as Json, refs, -1);
    }
  }

  /**
   * JSON text of a value, its parts of at least REF_MIN characters (itself too, when `refs`) as references. `depth`
   * counts the levels of a live value (-1: parsed JSON, plain by construction); one JSON alone cannot say as LangGraph's
   * serializer does throws NOT_PLAIN.
   */
  private slim(value: unknown, refs: boolean, depth: number): string {
    let text: string;
    if (typeof value === "string") text = refs && value.length >= SPLIT_MIN ? this.split(value) : JSON.stringify(value);
    else if (value === null || typeof value === "number" || typeof value === "boolean") return JSON.stringify(value);
    else if (value === undefined) return UNDEFINED_JSON;
    else if (typeof value !== "object" || depth > MAX_LIVE_DEPTH) throw NOT_PLAIN;
    else {
      const next = depth < 0 ? -1 : depth + 1;
      if (Array.isArray(value)) {
        let body = "";
        for (let i = 0; i < value.length; i++) {
          body += `${i ? "," : ""}${this.slim(value[i], refs, next)}`;
        }
        text = `[${body}]`;
      } else {
        if (depth >= 0 && !isPlainObject(value)) throw NOT_PLAIN;
        const object = value as Record<string, unknown>;
        const keys = Object.keys(object);
        let body = "";
        for (let i = 0; i < keys.length; i++) {
          body += `${i ? "," : ""}${JSON.stringify(keys[i])}:${this.slim(object[keys[i]!], refs, next)}`;
        }
        text = keys.length === 1 && OURS.has(keys[0]!) ? `{"${ESC}":{${body}}}` : `{${body}}`;
      }
    }
    if (!refs || text.length < REF_MIN) return text;
    return `{"${REF}":${this.chunk(text)}}`;
  }

  private split(value: string): string {
    const memo = this.splits.get(value);
    if (memo !== undefined) {
      this.used(value);
      return memo;
    }
    if (LONE_SURROGATE.test(value)) return JSON.stringify(value);
    const out: (string | number)[] = [];
    for (const piece of splitPieces(value)) {
      if (piece.length >= PIECE_INLINE) out.push(this.chunk(piece));
      else if (typeof out.at(-1) === "string") out[out.length - 1] += piece;
      else out.push(piece);
    }
    const text = `{"${STR}":${JSON.stringify(out)}}`;
    this.learnt.push(() => {
      const key = ownCopy(value);
      this.splits.set(key, text);
      this.used(key);
    });
    return text;
  }

  /** The id of a chunk holding this text: found by hash and content, or added. */
  private chunk(text: string): number {
    const memo = this.known.get(text);
    if (memo !== undefined) {
      this.used(text);
      return memo;
    }
    const known = this.fresh.get(text);
    if (known !== undefined) return known;
    const hash = createHash("sha256").update(text).digest().readBigInt64BE(0) || 1n; // 0 marks frames
    let id: number | undefined;
    // Other processes' chunks are looked for only when large (schema pieces, prompts): a small one stored twice
    // costs less than the query.
    if (text.length >= LOOKUP_MIN) {
      for (const row of this.byHash.all(hash) as { id: number; value: string | Buffer }[]) {
        if (this.chunkText(row.value, row.id) === text) id = row.id;
      }
    }
    if (id === undefined) {
      const deflated = text.length >= DEFLATE_MIN ? deflateRawSync(text) : undefined;
      id = this.write(hash, deflated && deflated.length < Buffer.byteLength(text) ? deflated : text);
    }
    const found = id;
    this.fresh.set(text, found);
    this.learnt.push(() => {
      const key = ownCopy(text);
      this.known.set(key, found);
      this.used(key);
    });
    return id;
  }

  /** A chunk is TEXT as written, or a BLOB deflated. */
  private chunkText(stored: string | Buffer, id: number): string {
    if (typeof stored === "string") return stored;
    try {
      return inflateRawSync(stored).toString("utf8");
    } catch {
      throw damaged(`chunk ${id} does not inflate`);
    }
  }

  private stored(id: number, below = Infinity): string | Buffer {
    if (!Number.isSafeInteger(id) || id <= 0 || id >= below) throw damaged(`a reference to chunk ${id} where none can be`);
    const stored = this.byId.get(id) as string | Buffer | undefined;
    if (stored === undefined) throw damaged(`chunk ${id} is missing`);
    return stored;
  }

  private frameText(id: number, depth: number): Buffer {
    const hit = this.frames.get(id);
    if (hit) return hit;
    if (depth > MAX_CHAIN_READ) throw damaged(`frame ${id} ends a chain of more than ${MAX_CHAIN_READ} frames`);
    const stored = this.stored(id);
    if (typeof stored === "string") throw damaged(`chunk ${id} is not a checkpoint frame`);
    const [base, at] = readVarint(stored, 0);
    if (base >= id) throw damaged(`frame ${id} refers to a later frame`);
    let text: Buffer;
    try {
      text = inflateRawSync(stored.subarray(at), base ? { dictionary: this.frameText(base, depth + 1) } : {});
    } catch (error) {
      if (error instanceof UserError) throw error;
      throw damaged(`frame ${id} does not inflate`);
    }
    this.frames.set(id, text);
    return text;
  }

  /** The value with its references resolved; a chunk refers only to earlier chunks (`below`), so no cycle reads. */
  private expand(value: Json, below: number): Json {
    if (value === null || typeof value !== "object") return value;
    if (Array.isArray(value)) return value.map((v) => this.expand(v, below));
    const keys = Object.keys(value);
    if (keys.length === 1 && OURS.has(keys[0]!)) {
      const inner = value[keys[0]!]!;
      if (keys[0] === REF && typeof inner === "number") {
        const text = this.chunkText(this.stored(inner, below), inner);
        let parsed: Json;
        try {
          parsed = JSON.parse(text) as Json;
        } catch {
          throw damaged(`chunk ${inner} is not JSON`);
        }
        return this.expand(parsed, inner);
      }
      if (keys[0] === STR && Array.isArray(inner)) {
        return inner
          .map((p) => {
            if (typeof p === "string") return p;
            if (typeof p === "number") return this.chunkText(this.stored(p, below), p);
            throw damaged("a string piece that is neither text nor a chunk");
          })
          .join("");
      }
      if (keys[0] === ESC && inner !== null && typeof inner === "object" && !Array.isArray(inner)) {
        return Object.fromEntries(Object.keys(inner).map((k) => [k, this.expand(inner[k]!, below)]));
      }
      throw damaged(`a malformed ${keys[0]} reference`);
    }
    return Object.fromEntries(keys.map((k) => [k, this.expand(value[k]!, below)]));
  }
}

/** The channel of one write row that holds all the writes of a task ([channel, value] pairs, in order). */
export const PACKED_WRITES = "__sqlmend_writes__";

/**
 * SqliteSaver with the chunk serializer, storing the ordinary writes of one task in one row: a row carries two ids of
 * 36 characters, the thread id and an index entry repeating them, more than most written values. Special writes
 * (errors, interrupts, resumes, Send tasks) keep their own rows, as SqliteSaver's reads and replaces rely on them.
 * Reads unpack, so LangGraph sees the pending writes as they were written.
 */
export class LightSqliteSaver extends SqliteSaver {
  private readonly chunks: ChunkSerializer;
  /** SqliteSaver's inserts, prepared once (it prepares them again at every put and write). */
  private readonly insertCheckpoint: Database.Statement;
  private readonly replaceWrite: Database.Statement;
  private readonly ignoreWrite: Database.Statement;

  constructor(db: Database.Database) {
    createTables(db);
    const serde = new ChunkSerializer(db);
    super(db, serde);
    this.chunks = serde;
    this.insertCheckpoint = db.prepare(
      "INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)",
    );
    const insertWrite = (verb: string) => db.prepare(`INSERT ${verb} INTO writes (thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    this.replaceWrite = insertWrite("OR REPLACE");
    this.ignoreWrite = insertWrite("OR IGNORE");
  }

  /**
   * SqliteSaver's put, with the checkpoint's chunks, its frame and its row in one transaction. Encoded at once, from
   * the live values (no copy): LangGraph may go on to the next step before this promise settles.
   */
  override async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<RunnableConfig> {
    this.setup();
    if (!config.configurable) throw new Error("Empty configuration supplied.");
    const threadId = config.configurable.thread_id as string | undefined;
    const ns = (config.configurable.checkpoint_ns as string | undefined) ?? "";
    if (!threadId) throw new Error(`Missing "thread_id" field in passed "config.configurable".`);
    // copyCheckpoint's fields, in its order, without its copies.
    const saved = {
      v: checkpoint.v,
      id: checkpoint.id,
      ts: checkpoint.ts,
      channel_values: checkpoint.channel_values ?? {},
      channel_versions: checkpoint.channel_versions ?? {},
      versions_seen: checkpoint.versions_seen ?? {},
    };
    // Frames chain within the thread and namespace.
    const thread = `${String(threadId)}\u0000${String(ns)}`;
    this.chunks.useThread(String(threadId));
    try {
      this.chunks.inTransaction(() => {
        const [type, row] = this.chunks.encodeIn(saved, thread);
        const [, metaRow] = this.chunks.encodeIn(metadata, thread);
        this.insertCheckpoint.run(threadId, ns, checkpoint.id, config.configurable!.checkpoint_id, type, row, metaRow);
      });
    } catch (error) {
      asDamage(error);
    }
    return { configurable: { thread_id: threadId, checkpoint_ns: ns, checkpoint_id: checkpoint.id } };
  }

  /** SqliteSaver's putWrites, the task's ordinary writes packed in one row, all in one transaction (encoded at once). */
  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    this.setup();
    if (!config.configurable) throw new Error("Empty configuration supplied.");
    if (!config.configurable.thread_id) throw new Error("Missing thread_id field in config.configurable.");
    if (!config.configurable.checkpoint_id) throw new Error("Missing checkpoint_id field in config.configurable.");
    const own = writes.length < 2 || writes.some(([channel]) => channel in WRITES_IDX_MAP || channel === TASKS || channel === PACKED_WRITES);
    const rows: PendingWrite[] = own ? writes : [[PACKED_WRITES, writes.map(([channel, value]) => [channel, value])]];
    const insert = rows.every(([channel]) => channel in WRITES_IDX_MAP) ? this.replaceWrite : this.ignoreWrite;
    const { thread_id, checkpoint_ns, checkpoint_id } = config.configurable;
    this.chunks.useThread(String(thread_id));
    try {
      this.chunks.inTransaction(() =>
        rows.forEach(([channel, value], idx) => {
          // LangGraph's serializer keeps bytes as bytes.
          const [type, encoded] = value instanceof Uint8Array ? ["bytes", value] : this.chunks.encodeIn(value, undefined);
          insert.run(thread_id, checkpoint_ns, checkpoint_id, taskId, WRITES_IDX_MAP[channel] ?? idx, channel, type, encoded);
        }),
      );
    } catch (error) {
      asDamage(error);
    }
  }

  /** The runner's word that a thread (a question) has ended: its caches go (`ChunkSerializer.releaseThread`). */
  releaseThread(threadId: string): void {
    this.chunks.releaseThread(threadId);
  }

  /** The serializer's cache sizes (tests, benches). */
  cacheSizes() {
    return this.chunks.cacheSizes();
  }

  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    const tuple = await super.getTuple(config).catch(asDamage);
    return tuple && unpack(tuple);
  }

  override async *list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    try {
      for await (const tuple of super.list(config, options)) yield unpack(tuple);
    } catch (error) {
      asDamage(error);
    }
  }
}

/**
 * SQLite's word that the checkpoint file is corrupt, said as checkpoint damage (`DamagedCheckpointError`) where it
 * arises: the runner restarts a thread only for that, never for a node's error about some other file (a corrupt
 * benchmark database says the same words).
 */
function asDamage(error: unknown): never {
  if (!(error instanceof UserError) && isDamagedCheckpoint(error)) throw new DamagedCheckpointError(`checkpoint file does not read: ${firstLineOf(error)}`);
  throw error;
}

function unpack(tuple: CheckpointTuple): CheckpointTuple {
  if (!tuple.pendingWrites?.some(([, channel]) => channel === PACKED_WRITES)) return tuple;
  const pendingWrites = tuple.pendingWrites.flatMap(([taskId, channel, value]) =>
    channel === PACKED_WRITES ? (value as Array<[string, unknown]>).map(([c, v]): [string, string, unknown] => [taskId, c, v]) : [[taskId, channel, value] as [string, string, unknown]],
  );
  return { ...tuple, pendingWrites };
}

/**
 * SqliteSaver's tables (same columns and keys; its setup then finds them), created WITHOUT ROWID in a new file: the rows
 * are small (values live in chunks), and a rowid table would keep every key twice, in the rows and in the index of
 * its primary key. Files that have the tables keep them as they are.
 */
export function createTables(db: Database.Database) {
  db.exec(`
CREATE TABLE IF NOT EXISTS checkpoints (
  thread_id TEXT NOT NULL,
  checkpoint_ns TEXT NOT NULL DEFAULT '',
  checkpoint_id TEXT NOT NULL,
  parent_checkpoint_id TEXT,
  type TEXT,
  checkpoint BLOB,
  metadata BLOB,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS writes (
  thread_id TEXT NOT NULL,
  checkpoint_ns TEXT NOT NULL DEFAULT '',
  checkpoint_id TEXT NOT NULL,
  task_id TEXT NOT NULL,
  idx INTEGER NOT NULL,
  channel TEXT NOT NULL,
  type TEXT,
  value BLOB,
  PRIMARY KEY (thread_id, checkpoint_ns, checkpoint_id, task_id, idx)
) WITHOUT ROWID;`);
}
