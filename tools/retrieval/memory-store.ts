import fs from "node:fs";
import path from "node:path";
import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import { z } from "zod";
import type { ModelCallRecord } from "../../state/usage.ts";
import { type Embedder, embedRecorded } from "../models/embeddings.ts";
import { firstLineOf, UserError } from "../../core/errors.ts";
import { DenseKeyIndex, type Hit, keyText, LexicalKeyIndex, type RetrievalKey } from "./key-index.ts";
import { sqlSkeleton } from "../sql-skeleton.ts";
import { normaliseSql } from "../sql-normalise.ts";
import { openSharedSqlite } from "../sqlite/shared-file.ts";

/**
 * Memo-SQL's error-correction memory (§3.2): entries ⟨question, gold SQL, wrong SQL, error types, suggestions⟩ in an
 * embedded SQLite file of its own, retrieved by question + skeleton of the wrong SQL. Any method may reuse it.
 */

/** Table 4's nine semantic error types (E1–E9), in the snake_case form of the paper's Figure 7. */
export const ERROR_TYPES = [
  "join_logic_error",
  "filter_condition_error",
  "aggregation_grouping_error",
  "select_output_error",
  "ordering_limit_error",
  "subquery_logic_error",
  "null_handling_error",
  "temporal_semantics_error",
  "quantifier_intent_error",
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

export const ERROR_TYPE_HELP: Record<ErrorType, string> = {
  join_logic_error: "E1 join logic: wrong tables joined, wrong join keys or join kind, missing or extra join",
  filter_condition_error: "E2 filter condition: wrong, missing or extra WHERE/HAVING condition or value",
  aggregation_grouping_error: "E3 aggregation and grouping: wrong aggregate, missing or wrong GROUP BY key, wrong scope",
  select_output_error: "E4 select output: wrong, missing or extra columns, or wrong expression in SELECT",
  ordering_limit_error: "E5 ordering and limit: wrong ORDER BY column or direction, wrong or missing LIMIT",
  subquery_logic_error: "E6 subquery logic: wrong nesting, correlation, IN/EXISTS, or set operation",
  null_handling_error: "E7 null handling: NULLs not excluded or wrongly counted, missing IS NOT NULL",
  temporal_semantics_error: "E8 temporal semantics: wrong date parts, ranges or date arithmetic",
  quantifier_intent_error: "E9 quantifier intent: all vs any, at least vs exactly, distinct counting, superlatives",
};

const ALIASES: Record<string, ErrorType> = Object.fromEntries(
  ERROR_TYPES.flatMap((type, i) => {
    const words = type.replace(/_error$/, "").split("_");
    return [
      [`e${i + 1}`, type],
      [type.replace(/_/g, ""), type],
      [words.join(""), type],
    ];
  }),
);
// The paper's own names differ slightly from ours in places.
Object.assign(ALIASES, { aggregationandgroupingerror: "aggregation_grouping_error", subquerylogicalerror: "subquery_logic_error", orderingandlimiterror: "ordering_limit_error" });

/** Maps spellings a model may use ("E2", "Filter Condition Error", "filter-condition") onto the enum; else unchanged. */
export function normalizeErrorType(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const squashed = value.toLowerCase().replace(/^e(\d)\s*[:.-]?\s+.*$/, "e$1").replace(/[^a-z0-9]/g, "");
  return ALIASES[squashed] ?? value;
}

/** An error type, validated against the taxonomy (after normalising the spelling). */
export const ErrorTypeSchema = z.preprocess(normalizeErrorType, z.enum(ERROR_TYPES));

export interface NewMemoryEntry {
  /**
   * Where the entry came from: `<dbId>/<question id>` for a build (benchmarks number train and dev from 0 each, and
   * their databases differ, so the database keeps ids apart), `added:<hash>` for `memo add`. Self-retrieval exclusion
   * checks it (and the question text).
   */
  sourceId: string;
  dbId: string;
  question: string;
  evidence: string;
  goldSql: string;
  wrongSql: string;
  errorTypes: ErrorType[];
  suggestions: string;
}

export interface MemoryEntry extends NewMemoryEntry {
  id: number;
  skeleton: string;
  createdAt: string;
}

export type RetrievalMode = "filtered" | "top4" | "random" | "none";

export interface RankedEntry {
  entry: MemoryEntry;
  score: number;
  /** Kept by the subsumption filter (always true outside `filtered`). */
  kept: boolean;
  /** Filtered mode: the id of the kept entry whose error types contain this one's. */
  subsumedBy?: number;
}

export interface Retrieval {
  mode: RetrievalMode;
  ranking: "embeddings" | "lexical" | "random" | "none";
  /** Why dense ranking was not used, when an embedder was given but failed. */
  note?: string;
  key: RetrievalKey;
  /** The ranked candidates (top 40 in filtered mode), with the filter's decision. */
  ranked: RankedEntry[];
  /** What is shown to the model. */
  entries: MemoryEntry[];
  /** Embedding requests this retrieval made (role `embedder`), for the node's `calls` and usage. */
  records: ModelCallRecord[];
}

/** What embedding the memory's keys did: entries embedded now, their requests, and why it stopped, if it failed. */
export interface EmbedPending {
  embedded: number;
  records: ModelCallRecord[];
  error?: string;
}

export interface MemoryIdentity {
  file: string;
  /** The benchmark and split `memo build` read (null: entries only from `memo add`, or a file from an older build). */
  build: { bench: string; split: string } | null;
  entries: number;
  /** Questions the builds went through (with or without an entry). */
  questionsDone: number;
  sha256: string;
}

export interface RetrieveRequest {
  question: string;
  sql: string;
  /** Never retrieve entries made from this question: its id(s) and its text. */
  exclude?: { ids?: string[]; question?: string };
}

export const MEMORY_KIND = "sqlmend-memo-memory";
const SCHEMA_VERSION = "1";
/** A question's text for comparison: case, spacing and the space before punctuation ("pet ." as "pet.") ignored. */
export const normQuestion = (q: string) =>
  q
    .toLowerCase()
    .replace(/\s+([.,;:?!'")\]])/g, "$1")
    .replace(/([(\["])\s+/g, "$1")
    .replace(/\s+/g, " ")
    .trim();

/** SQL in canonical spelling (as R³'s consensus compares it); text that does not tokenize, by white space and case. */
function canonicalSql(sql: string): string {
  try {
    return normaliseSql(sql);
  } catch {
    return sql.toLowerCase().replace(/\s+/g, " ").replace(/;\s*$/, "").trim();
  }
}

/**
 * Walk entries by similarity, best first; drop an entry whose error-type set is contained in that of an entry already
 * kept (§3.5.1's second stage), so the kept entries cover diverse error patterns.
 */
export function subsumptionFilter<T extends { errorTypes: readonly string[] }>(ranked: T[]): { item: T; kept: boolean; subsumedBy?: number }[] {
  const kept: { types: Set<string>; at: number }[] = [];
  return ranked.map((item, at) => {
    const owner = kept.find((k) => item.errorTypes.every((t) => k.types.has(t)));
    if (owner) return { item, kept: false, subsumedBy: owner.at };
    kept.push({ types: new Set(item.errorTypes), at });
    return { item, kept: true };
  });
}

interface Row {
  id: number;
  source_id: string;
  db_id: string;
  question: string;
  evidence: string;
  gold_sql: string;
  wrong_sql: string;
  error_types: string;
  suggestions: string;
  skeleton: string;
  created_at: string;
  embedding: Buffer | null;
  embed_model: string | null;
}

export class MemoryStore {
  private readonly rows: MemoryEntry[] = [];
  private readonly vectors = new DenseKeyIndex();
  private readonly index = new LexicalKeyIndex();
  private lastId = 0;
  /** Each row's place in content order (see `tieRank`), rebuilt when rows arrive. */
  private ranks: Int32Array | undefined;
  private embedding: Promise<EmbedPending> | undefined;

  private constructor(
    readonly file: string,
    private readonly db: Database.Database,
    private readonly embedder?: Embedder,
  ) {
    this.refresh();
  }

  /**
   * Opens (or with `create`, creates) a memory file. A SQLite file that is something else is refused with one line,
   * so a memory never lands inside a benchmark's database.
   */
  static open(file: string, options: { create?: boolean; embedder?: Embedder; readonly?: boolean } = {}): MemoryStore {
    const exists = fs.existsSync(file);
    if (!exists && !options.create) throw new UserError(`memory file not found: ${file} (build one with 'sqlmend memo build')`);
    if (!exists) fs.mkdirSync(path.dirname(path.resolve(file)), { recursive: true });
    let db: Database.Database;
    try {
      db = openSharedSqlite(file, {
        busyMs: 5000,
        synchronousNormal: true,
        before: (opened) => {
          const tables = (opened.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").all() as { name: string }[]).map((t) => t.name);
          if (!tables.length) return;
          const kind = tables.includes("meta") ? (opened.prepare("SELECT value FROM meta WHERE key = 'kind'").get() as { value?: string } | undefined)?.value : undefined;
          if (kind !== MEMORY_KIND) throw new UserError(`${file} is not a Memo-SQL memory (it is another SQLite database)`);
        },
        schema: `
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE IF NOT EXISTS entries (
          id INTEGER PRIMARY KEY AUTOINCREMENT, source_id TEXT NOT NULL, db_id TEXT NOT NULL, question TEXT NOT NULL,
          evidence TEXT NOT NULL, gold_sql TEXT NOT NULL, wrong_sql TEXT NOT NULL, error_types TEXT NOT NULL,
          suggestions TEXT NOT NULL, skeleton TEXT NOT NULL, created_at TEXT NOT NULL, embedding BLOB, embed_model TEXT);
        CREATE TABLE IF NOT EXISTS done (source_id TEXT PRIMARY KEY, outcome TEXT NOT NULL, note TEXT);
        INSERT OR IGNORE INTO meta VALUES ('kind', '${MEMORY_KIND}'), ('version', '${SCHEMA_VERSION}');`,
      });
    } catch (error) {
      if (error instanceof UserError) throw error;
      throw new UserError(`${file}: cannot open the memory: ${firstLineOf(error)}`);
    }
    return new MemoryStore(file, db, options.embedder);
  }

  get size(): number {
    this.refresh();
    return this.rows.length;
  }

  entries(): MemoryEntry[] {
    this.refresh();
    return [...this.rows];
  }

  /** Loads entries another process (or `memo add`) wrote since the last look: the index grows, never rebuilds. */
  refresh(): void {
    const fresh = this.db.prepare("SELECT * FROM entries WHERE id > ? ORDER BY id").all(this.lastId) as Row[];
    for (const row of fresh) this.push(row);
  }

  private push(row: Row): void {
    const entry: MemoryEntry = {
      id: row.id,
      sourceId: row.source_id,
      dbId: row.db_id,
      question: row.question,
      evidence: row.evidence,
      goldSql: row.gold_sql,
      wrongSql: row.wrong_sql,
      errorTypes: JSON.parse(row.error_types) as ErrorType[],
      suggestions: row.suggestions,
      skeleton: row.skeleton,
      createdAt: row.created_at,
    };
    this.rows.push(entry);
    if (row.embedding && row.embed_model && row.embed_model === this.embedder?.model) this.vectors.set(this.rows.length - 1, new Float32Array(new Uint8Array(row.embedding).buffer));
    this.index.add({ question: entry.question, skeleton: entry.skeleton });
    this.lastId = row.id;
  }

  /** Adds one entry (validated); it is retrievable at once, here and — after their refresh — in other processes. */
  add(entry: NewMemoryEntry, done?: { id: string; outcome: string; note?: string }): MemoryEntry {
    const types = z.array(ErrorTypeSchema).min(1).parse(entry.errorTypes) as ErrorType[];
    const skeleton = sqlSkeleton(entry.wrongSql);
    const insert = this.db.transaction(() => {
      const info = this.db
        .prepare(
          "INSERT INTO entries (source_id, db_id, question, evidence, gold_sql, wrong_sql, error_types, suggestions, skeleton, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        )
        .run(entry.sourceId, entry.dbId, entry.question, entry.evidence, entry.goldSql, entry.wrongSql, JSON.stringify([...new Set(types)]), entry.suggestions, skeleton, new Date().toISOString());
      if (done) this.markDoneNow(done.id, done.outcome, done.note);
      return Number(info.lastInsertRowid);
    });
    const id = insert();
    this.refresh();
    return this.rows.find((r) => r.id === id)!;
  }

  /** Build bookkeeping: a question (by its benchmark id) finished, with or without an entry. */
  markDone(sourceId: string, outcome: string, note?: string): void {
    this.markDoneNow(sourceId, outcome, note);
  }

  private markDoneNow(sourceId: string, outcome: string, note?: string) {
    this.db.prepare("INSERT OR REPLACE INTO done (source_id, outcome, note) VALUES (?, ?, ?)").run(sourceId, outcome, note ?? null);
  }

  done(): Map<string, { outcome: string; note?: string }> {
    const rows = this.db.prepare("SELECT source_id, outcome, note FROM done").all() as { source_id: string; outcome: string; note: string | null }[];
    return new Map(rows.map((r) => [r.source_id, { outcome: r.outcome, ...(r.note ? { note: r.note } : {}) }]));
  }

  getMeta(key: string): string | undefined {
    return (this.db.prepare("SELECT value FROM meta WHERE key = ?").get(key) as { value?: string } | undefined)?.value;
  }

  setMeta(key: string, value: string): void {
    this.db.prepare("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)").run(key, value);
  }

  /**
   * What this memory is: where its build came from (`memo build` records bench and split), how many entries, and a
   * sha256 over their content in id order (the same entries give the same hash, whatever the file's pages hold).
   */
  identity(): MemoryIdentity {
    this.refresh();
    const hash = createHash("sha256");
    for (const e of this.rows) hash.update(JSON.stringify([e.id, e.sourceId, e.dbId, e.question, e.evidence, e.goldSql, e.wrongSql, e.errorTypes, e.suggestions])).update("\n");
    const build = this.getMeta("build");
    let source: MemoryIdentity["build"] = null;
    try {
      source = build ? (JSON.parse(build) as { bench: string; split: string }) : null;
    } catch {
      source = null;
    }
    return { file: this.file, build: source, entries: this.rows.length, questionsDone: this.done().size, sha256: hash.digest("hex") };
  }

  /**
   * Entries that could hand the critic an evaluated question's answer, with why (`how`):
   * - `split`: made by a build from the evaluated benchmark and split (the same question file) — any question of it,
   *   evaluated or not: Spider's dev is largely paraphrase pairs sharing their gold SQL;
   * - `question`: (any source, `memo add` included) the same database and question text as an evaluated question;
   * - `gold`: the same database and, in canonical spelling (`normaliseSql`), the same gold SQL as an evaluated
   *   question — a paraphrase from another split or file is the same answer;
   * - `database`: an evaluated question's database: a paraphrase whose gold was rewritten still teaches that
   *   database's answers (Spider's and BIRD's train and dev use different databases). Not for a build from another
   *   split of the same benchmark folder (minibench's splits share databases by design; the split guard holds there).
   * `question` names the evaluated question's id (for `split`, the one of the same `<db>/<id>` when evaluated).
   */
  entriesFrom(
    questions: { id: string; dbId: string; question: string; goldSql?: string | undefined }[],
    where: { bench: string; split: string; questions?: string | undefined },
  ): { entry: MemoryEntry; question: string | null; how: "split" | "question" | "gold" | "database" }[] {
    this.refresh();
    const build = this.identity().build as { bench: string; split: string; questions?: string } | null;
    // Ids mean the same only for the same question file (a --questions file numbers its own questions).
    const sameSplit =
      build !== null && typeof build.bench === "string" && path.resolve(build.bench) === path.resolve(where.bench) && build.split === where.split && (build.questions ?? null) === (where.questions ?? null);
    const byId = new Map(questions.map((q) => [`${q.dbId}/${q.id}`, q.id]));
    const byText = new Map(questions.map((q) => [`${q.dbId}\0${normQuestion(q.question)}`, q.id]));
    const byGold = new Map(questions.flatMap((q) => (q.goldSql ? [[`${q.dbId}\0${canonicalSql(q.goldSql)}`, q.id] as const] : [])));
    const otherSplitHere =
      build !== null && typeof build.bench === "string" && path.resolve(build.bench) === path.resolve(where.bench) && build.split !== where.split && !build.questions && !where.questions;
    const databases = new Set(questions.map((q) => q.dbId));
    const out: { entry: MemoryEntry; question: string | null; how: "split" | "question" | "gold" | "database" }[] = [];
    for (const entry of this.rows) {
      const text = byText.get(`${entry.dbId}\0${normQuestion(entry.question)}`);
      const gold = byGold.get(`${entry.dbId}\0${canonicalSql(entry.goldSql)}`);
      // A build's entries carry `<db>/<id>`; `memo add`'s carry `added:` and come from no split.
      if (sameSplit && !entry.sourceId.startsWith("added:")) out.push({ entry, question: byId.get(entry.sourceId) ?? text ?? gold ?? null, how: "split" });
      else if (text !== undefined) out.push({ entry, question: text, how: "question" });
      else if (gold !== undefined) out.push({ entry, question: gold, how: "gold" });
      else if (databases.has(entry.dbId) && !(otherSplitHere && !entry.sourceId.startsWith("added:"))) out.push({ entry, question: null, how: "database" });
    }
    return out;
  }

  /** Entries and the histogram of their error types. */
  stats(): { entries: number; histogram: Record<ErrorType, number>; done: Record<string, number> } {
    this.refresh();
    const histogram = Object.fromEntries(ERROR_TYPES.map((t) => [t, 0])) as Record<ErrorType, number>;
    for (const entry of this.rows) for (const t of entry.errorTypes) histogram[t]++;
    const done: Record<string, number> = {};
    for (const { outcome } of this.done().values()) done[outcome] = (done[outcome] ?? 0) + 1;
    return { entries: this.rows.length, histogram, done };
  }

  /**
   * Retrieval for one SQL: `filtered` — the top `topN` (40) by key similarity, then the subsumption filter;
   * `top4` — the 4 most similar, unfiltered; `random` — 4 entries drawn at random (seeded by the key, so reruns
   * agree); `none` — nothing. Entries made from the question itself (same id or same text) are never returned.
   */
  async retrieve(request: RetrieveRequest, options: { mode?: RetrievalMode; topN?: number; k?: number } = {}): Promise<Retrieval> {
    this.refresh();
    const mode = options.mode ?? "filtered";
    const key: RetrievalKey = { question: request.question, skeleton: sqlSkeleton(request.sql) };
    const excludedIds = new Set(request.exclude?.ids ?? []);
    const excludedQuestion = request.exclude?.question !== undefined ? normQuestion(request.exclude.question) : undefined;
    const keep = (i: number) => {
      const entry = this.rows[i]!;
      return !excludedIds.has(entry.sourceId) && (excludedQuestion === undefined || normQuestion(entry.question) !== excludedQuestion);
    };
    if (mode === "none") return { mode, ranking: "none", key, ranked: [], entries: [], records: [] };
    if (mode === "random") {
      const tieRank = this.tieRank();
      const eligible = this.rows.map((_, i) => i).filter(keep).sort((a, b) => tieRank(a) - tieRank(b));
      const picked = seededSample(eligible, options.k ?? 4, keyText(key));
      const ranked = picked.map((i) => ({ entry: this.rows[i]!, score: 0, kept: true }));
      return { mode, ranking: "random", key, ranked, entries: ranked.map((r) => r.entry), records: [] };
    }
    const n = mode === "top4" ? (options.k ?? 4) : (options.topN ?? 40);
    const { hits, ranking, note, records } = await this.rank(key, n, keep);
    const list = hits.map((h) => ({ entry: this.rows[h.index]!, score: h.score }));
    if (mode === "top4") {
      const ranked = list.map((r) => ({ ...r, kept: true }));
      return { mode, ranking, ...(note ? { note } : {}), key, ranked, entries: ranked.map((r) => r.entry), records };
    }
    const filtered = subsumptionFilter(list.map((r) => ({ ...r, errorTypes: r.entry.errorTypes })));
    const ranked: RankedEntry[] = filtered.map(({ item, kept, subsumedBy }) => ({
      entry: item.entry,
      score: item.score,
      kept,
      ...(subsumedBy !== undefined ? { subsumedBy: list[subsumedBy]!.entry.id } : {}),
    }));
    return { mode, ranking, ...(note ? { note } : {}), key, ranked, entries: ranked.filter((r) => r.kept).map((r) => r.entry), records };
  }

  private async rank(key: RetrievalKey, n: number, keep: (i: number) => boolean): Promise<{ hits: Hit[]; ranking: "embeddings" | "lexical"; note?: string; records: ModelCallRecord[] }> {
    const tieRank = this.tieRank();
    const lexical = (note: string | undefined, records: ModelCallRecord[]) => ({ hits: this.index.search(key, n, keep, tieRank), ranking: "lexical" as const, ...(note ? { note } : {}), records });
    if (!this.embedder) return lexical(undefined, []);
    const pending = await this.embedPending();
    if (pending.error) return lexical(pending.error, pending.records);
    const query = await embedRecorded(this.embedder, [keyText(key)]);
    const records = [...pending.records, ...query.records];
    if (!query.ok) return lexical(query.note, records);
    if (!query.vectors[0]?.length) return lexical("the embedder returned no vector; ranked lexically", records);
    return { hits: this.vectors.search(query.vectors[0], this.rows.length, n, keep, tieRank), ranking: "embeddings", records };
  }

  /**
   * Equal scores and the random mode's draw go by the entries' content, not the order they were written: a concurrent
   * `memo build` writes them in any order, and retrieval (so the critics' prompts and the run's EX) must not depend on
   * it. Rows of identical content fall back to their id.
   */
  private tieRank(): (index: number) => number {
    if (this.ranks?.length !== this.rows.length) {
      const keyOf = (e: MemoryEntry) => `${e.sourceId}\u0000${e.question}\u0000${e.wrongSql}\u0000${e.errorTypes.join(",")}\u0000${e.suggestions}`;
      const keys = this.rows.map(keyOf);
      const order = this.rows.map((_, i) => i).sort((a, b) => (keys[a]! < keys[b]! ? -1 : keys[a]! > keys[b]! ? 1 : this.rows[a]!.id - this.rows[b]!.id));
      const ranks = new Int32Array(this.rows.length);
      order.forEach((row, place) => (ranks[row] = place));
      this.ranks = ranks;
    }
    const ranks = this.ranks;
    return (index) => ranks[index]!;
  }

  /** How many entries carry a key vector, by the embedding model that made it. */
  vectorModels(): Record<string, number> {
    const rows = this.db.prepare("SELECT embed_model AS model, count(*) AS n FROM entries WHERE embedding IS NOT NULL GROUP BY embed_model").all() as { model: string; n: number }[];
    return Object.fromEntries(rows.map((r) => [r.model, r.n]));
  }

  /** Entries with a vector for the configured embedding model (dense retrieval ranks only these). */
  get embeddedCount(): number {
    this.refresh();
    return this.vectors.size;
  }

  /**
   * Embeds (and stores in the file) the keys of entries that have no vector for the configured model yet. One run at
   * a time: the nine critics of a question retrieve at once, and each must not embed the whole memory again; callers
   * that join a run already under way wait for it (its requests are counted once, by the caller that started it).
   */
  async embedPending(): Promise<EmbedPending> {
    if (!this.embedder) return { embedded: 0, records: [] };
    this.refresh();
    if (this.embedding) {
      const shared = await this.embedding;
      return { ...shared, records: [] };
    }
    const run = this.embedMissingNow(this.embedder);
    this.embedding = run;
    try {
      return await run;
    } finally {
      this.embedding = undefined;
    }
  }

  private async embedMissingNow(embedder: Embedder): Promise<EmbedPending> {
    const missing = this.rows.map((_, i) => i).filter((i) => !this.vectors.has(i));
    const update = this.db.prepare("UPDATE entries SET embedding = ?, embed_model = ? WHERE id = ?");
    const records: ModelCallRecord[] = [];
    let embedded = 0;
    for (let start = 0; start < missing.length; start += 64) {
      const batch = missing.slice(start, start + 64);
      const out = await embedRecorded(embedder, batch.map((i) => keyText({ question: this.rows[i]!.question, skeleton: this.rows[i]!.skeleton })));
      records.push(...out.records);
      if (!out.ok) return { embedded, records, error: out.note };
      if (out.vectors.length !== batch.length || out.vectors.some((v) => !v?.length)) {
        return { embedded, records, error: `the embedder returned ${out.vectors.length} vectors for ${batch.length} texts; ranked lexically` };
      }
      const dims = new Set(out.vectors.map((v) => v.length));
      if (dims.size > 1 || (this.vectors.size && !this.vectors.set(batch[0]!, out.vectors[0]!))) {
        return { embedded, records, error: `the embedder returned vectors of ${[...dims].join("/")} dimensions, unlike the memory's; ranked lexically` };
      }
      batch.forEach((i, j) => this.vectors.set(i, out.vectors[j]!));
      try {
        this.db.transaction(() => batch.forEach((i, j) => update.run(Buffer.from(new Float32Array(out.vectors[j]!).buffer), embedder.model, this.rows[i]!.id)))();
      } catch {
        // A read-only or busy memory file: the vectors serve this process only (the next one embeds them again).
      }
      embedded += batch.length;
    }
    return { embedded, records };
  }

  close(): void {
    if (this.db.open) this.db.close();
  }
}

/** k distinct items drawn by a generator seeded from `seed` (reproducible). */
function seededSample(items: number[], k: number, seed: string): number[] {
  let state = createHash("sha256").update(seed).digest().readUInt32LE(0) || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  const pool = [...items];
  const out: number[] = [];
  while (out.length < k && pool.length) out.push(pool.splice(Math.floor(next() * pool.length), 1)[0]!);
  return out;
}

/** One memory entry as a model sees it (critic prompts, `memo show`). */
export function renderEntry(entry: MemoryEntry, n?: number): string {
  return [
    `${n !== undefined ? `Case ${n}. ` : ""}Question: ${entry.question}${entry.evidence ? `\nEvidence: ${entry.evidence}` : ""}`,
    `Wrong SQL: ${entry.wrongSql}`,
    `Error types: ${entry.errorTypes.join(", ")}`,
    `Correct SQL: ${entry.goldSql}`,
    `Suggestions: ${entry.suggestions}`,
  ].join("\n");
}
