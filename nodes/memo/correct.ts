import path from "node:path";
import { Command, END, Send } from "@langchain/langgraph";
import { z } from "zod";
import { readOptions } from "../../core/options.ts";
import { type MemoStateValue, type MemoVote, STRATEGIES } from "../../state/memo.ts";
import type { Candidate, Execution } from "../../state/sql-state.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import type { Embedder } from "../../tools/models/embeddings.ts";
import { callModel, callStructured } from "../../tools/models/llm.ts";
import { ErrorTypeSchema, MemoryStore, type RetrievalMode } from "../../tools/retrieval/memory-store.ts";
import { extractSql } from "../../tools/reply.ts";
import { normaliseSql } from "../../tools/sql-normalise.ts";
import { withCalls } from "../common.ts";
import { executeSql } from "../execute.ts";
import { resultGroups, splitBallots } from "../vote.ts";
import type { GraphOptions, NodeDeps } from "../types.ts";
import { contextOf, type MemoContext, observe } from "./common.ts";
import { MEMO_CORRECTION_OPTIONS, MEMO_REFINE_OPTIONS, MEMO_SQL_OPTIONS } from "./options.ts";
import { loadCandidateSets } from "./candidates.ts";
import { criticPrompt, refinePrompt } from "./prompts.ts";
import type { MemoNodeFactory } from "./solve.ts";

/**
 * Memo-SQL's correction half (§3.5): each candidate, in parallel, goes critic ↔ refiner until the critic accepts or
 * `refineRounds` refinements were made; then a majority vote over execution fingerprints picks the answer.
 */

export interface CandidatePayload {
  ctx: MemoContext;
  candidate: Candidate;
  /** Refinements made so far. */
  round: number;
  /** The critic's verdict, on the way to the refiner. */
  verdict?: { errorTypes: string[]; suggestions: string };
}

const stores = new Map<string, MemoryStore>();

/**
 * One open store per memory file and embedder, shared by the nodes of every graph built in this process. A relative
 * `--memory` resolves against the launcher's working directory (`options.cwd`), as other file options do.
 */
export function memoryStoreFor(file: string, embedder: Embedder | undefined, options: GraphOptions = {}): MemoryStore {
  const cwd = (options as { cwd?: unknown }).cwd;
  const resolved = path.resolve(typeof cwd === "string" ? cwd : process.cwd(), file);
  const key = `${resolved}\0${embedder?.model ?? ""}`;
  let store = stores.get(key);
  if (!store) stores.set(key, (store = MemoryStore.open(resolved, { embedder })));
  return store;
}

export const CriticSchema = z.object({
  wrong: z.boolean(),
  errorTypes: z.array(ErrorTypeSchema).default([]),
  suggestions: z.string().default(""),
});

type LastExecuting = { sql: string; execution: Execution };
const meta = (c: Candidate) => (c.meta ?? {}) as { final?: boolean; rounds?: number; verdicts?: unknown[]; order?: number; lastExecuting?: LastExecuting; [k: string]: unknown };

/**
 * A candidate as it reaches the vote. Nothing worse replaces something better: when its SQL fails to execute but an
 * earlier version of it executed (a refinement broke it), that version is kept, and `meta.reverted` says so.
 */
function finalCandidate(c: Candidate, extra: Record<string, unknown>): Candidate {
  const { lastExecuting, ...rest } = meta(c);
  if (lastExecuting && c.sql.trim() && !c.execution?.ok) {
    return {
      ...c,
      sql: lastExecuting.sql,
      execution: lastExecuting.execution,
      meta: { ...rest, ...extra, final: true, reverted: { sql: c.sql, error: c.execution?.error ?? "not executed", note: "the refinement did not execute: kept the last SQL that did" } },
    };
  }
  return { ...c, meta: { ...rest, ...extra, final: true } };
}

/**
 * Slot `critic` (role `critic`). In: { ctx, candidate, round }. Shown the memory entries retrieved for question +
 * skeleton of the candidate (mode `retrieval`; none without a memory file), it answers {wrong, errorTypes,
 * suggestions}. Wrong with rounds left → refine; else the candidate is final → vote. A bad reply accepts the SQL.
 */
export const criticNode: MemoNodeFactory<CandidatePayload> = (deps, options) => {
  // Identical SQL (in canonical spelling, with the same result) is criticised once per question: the first branch
  // to ask holds the promise, the others reuse its verdict and retrieval (no calls), and say whose it was.
  const once = oncePerQuestion<CriticRun>();
  return async (payload) => {
    const { refineRounds } = readOptions(MEMO_CORRECTION_OPTIONS, options);
    const { ctx, candidate, round } = payload;
    const { value, reusedFrom } = await once(sameQuestionAndSql(ctx, candidate), candidate.id, () => runCritic(deps, options, ctx, candidate));
    const { verdict: given, memoryNote, records } = value;
    const verdict = { round, ...given, ...(reusedFrom ? { reusedFrom } : {}) };
    const calls = reusedFrom ? [] : records;
    const updated: Candidate = { ...candidate, meta: { ...meta(candidate), memory: memoryNote, verdicts: [...(meta(candidate).verdicts ?? []), verdict] } };
    if (verdict.wrong && round < refineRounds) {
      return new Command({
        update: withCalls({ candidates: [updated] }, calls),
        goto: new Send("refine", { ctx, candidate: updated, round, verdict: { errorTypes: verdict.errorTypes, suggestions: verdict.suggestions } } satisfies CandidatePayload),
      });
    }
    const accepted = !verdict.wrong;
    return new Command({ update: withCalls({ candidates: [finalCandidate(updated, { accepted })] }, calls), goto: "vote" });
  };
};

/** What makes two branches' calls the same: the question, and the SQL in canonical spelling with its result. */
const sameQuestionAndSql = (ctx: MemoContext, candidate: Candidate, extra = "") =>
  [ctx.dbPath, ctx.questionId, ctx.question, ctx.evidence, normaliseSql(candidate.sql), candidate.execution?.fingerprint ?? candidate.execution?.error ?? "", extra].join("\0");

/**
 * Runs `run` once per key: the first branch to ask holds the promise, parallel and later branches with the same key
 * get its value and the id of the branch that asked. In-process and bounded (a resumed run in another process asks
 * again); a failed run is forgotten.
 */
function oncePerQuestion<T>(): (key: string, by: string, run: () => Promise<T>) => Promise<{ value: T; reusedFrom?: string }> {
  const asked = new Map<string, { by: string; result: Promise<T> }>();
  return async (key, by, run) => {
    const shared = asked.get(key);
    if (shared) return { value: await shared.result, reusedFrom: shared.by };
    const result = run();
    asked.set(key, { by, result });
    result.catch(() => asked.delete(key));
    if (asked.size > 2000) asked.delete(asked.keys().next().value!);
    return { value: await result };
  };
}

interface CriticRun {
  verdict: { wrong: boolean; errorTypes: string[]; suggestions: string; shown: number; error?: string };
  memoryNote: Record<string, unknown>;
  records: ModelCallRecord[];
}

/** One critic call: the memory retrieved for question + skeleton of the SQL, then the verdict. */
async function runCritic(deps: NodeDeps, options: GraphOptions, ctx: MemoContext, candidate: Candidate): Promise<CriticRun> {
  const { memory, retrieval } = readOptions(MEMO_CORRECTION_OPTIONS, options);
  let cases: Awaited<ReturnType<MemoryStore["retrieve"]>>["entries"] = [];
  let embedCalls: ModelCallRecord[] = [];
  let memoryNote: Record<string, unknown>;
  if (retrieval === "none") memoryNote = { mode: "none" };
  else if (!memory) memoryNote = { mode: "none", note: "no memory file: the critic works without memory" };
  else {
    const r = await memoryStoreFor(memory, deps.embeddings, options).retrieve(
      { question: ctx.question, sql: candidate.sql, exclude: { ids: ctx.questionId ? [`${ctx.dbId}/${ctx.questionId}`] : [], question: ctx.question } },
      { mode: retrieval as RetrievalMode },
    );
    cases = r.entries;
    embedCalls = r.records;
    memoryNote = { mode: r.mode, ranking: r.ranking, ranked: r.ranked.length, shown: r.entries.map((e) => e.id), ...(r.note ? { note: r.note } : {}) };
  }
  const observation = candidate.execution ? observe(candidate.execution) : "not executed";
  const reply = await callStructured(deps.models, "critic", criticPrompt(ctx, candidate.sql, observation, cases), CriticSchema, { name: "verdict" });
  // Entries of the question's own database (kept only under --allow-memory-overlap, which the preflight asks for then).
  const own = cases.filter((e) => e.dbId === ctx.dbId).length;
  const sameDatabase = own ? { sameDatabase: own } : {};
  const verdict = reply.ok
    ? { wrong: reply.value.wrong, errorTypes: reply.value.errorTypes as string[], suggestions: reply.value.suggestions, shown: cases.length, ...sameDatabase }
    : { wrong: false, errorTypes: [], suggestions: "", shown: cases.length, ...sameDatabase, error: reply.error };
  return { verdict, memoryNote, records: [...embedCalls, ...reply.records] };
}

/** Slot `refine` (role `refiner`): rewrites the candidate per the critic's verdict and executes it; back to the critic while rounds remain. */
export const refineNode: MemoNodeFactory<CandidatePayload> = (deps, options) => {
  // The same SQL with the same verdict is rewritten once per question (as the critic's verdicts are reused).
  const once = oncePerQuestion<{ record: ModelCallRecord; sql: string | null; execution: Execution | null }>();
  return async (payload) => {
    const { refineRounds } = readOptions(MEMO_CORRECTION_OPTIONS, options);
    const { ctx, candidate, round, verdict } = payload;
    const observation = candidate.execution ? observe(candidate.execution) : "not executed";
    const { value, reusedFrom } = await once(sameQuestionAndSql(ctx, candidate, JSON.stringify(verdict ?? {})), candidate.id, async () => {
      const call = await callModel(deps.models, "refiner", refinePrompt(ctx, candidate.sql, observation, verdict?.errorTypes ?? [], verdict?.suggestions ?? ""));
      const sql = call.ok ? extractSql(call.text) : null;
      if (!sql) call.record.error = call.record.error ?? "reply holds no SQL";
      return { record: call.record, sql, execution: sql ? await executeSql(deps.executor, ctx.dbPath, sql, options) : null };
    });
    const { record, sql } = value;
    const calls = reusedFrom ? [] : [record];
    const reuse = reusedFrom ? { refinedBy: reusedFrom } : {};
    if (!sql) {
      const kept = finalCandidate(candidate, { accepted: false, note: `${record.error}; kept the previous SQL`, ...reuse });
      return new Command({ update: withCalls({ candidates: [kept], attempts: [{ node: "refine", sql: candidate.sql, ok: false, note: `${record.error}; kept the previous SQL` }] }, calls), goto: "vote" });
    }
    const execution = value.execution!;
    const rounds = round + 1;
    // The last SQL of this candidate that executed, in case this refinement does not (finalCandidate falls back to it).
    const lastExecuting: LastExecuting | undefined = candidate.execution?.ok ? { sql: candidate.sql, execution: candidate.execution } : meta(candidate).lastExecuting;
    const { lastExecuting: _previous, ...rest } = meta(candidate);
    const refined: Candidate = { ...candidate, sql, execution, meta: { ...rest, rounds, ...reuse, ...(!execution.ok && lastExecuting ? { lastExecuting } : {}) } };
    const update = withCalls({ candidates: [rounds < refineRounds ? refined : finalCandidate(refined, { accepted: false })], rounds: 1, attempts: [{ node: "refine", sql, ok: execution.ok }] }, calls);
    return new Command({ update, goto: rounds < refineRounds ? new Send("critic", { ctx, candidate: refined, round: rounds } satisfies CandidatePayload) : "vote" });
  };
};

/**
 * Slot `collect`: the gate between generation and correction. Paths finish at different steps, so it runs each time
 * a writer finishes and passes only when every path × style candidate is in; then one critic per candidate (or the
 * vote under noRefine).
 */
export const collectNode: MemoNodeFactory<MemoStateValue> = (_deps, options) => async (state) => {
  const { styles, noRefine, noLinking } = readOptions(MEMO_SQL_OPTIONS, options);
  if (state.candidates.length < STRATEGIES.length * styles) return new Command({ goto: [] });
  const ready = state.candidates.filter((c) => c.sql.trim());
  if (noRefine || !ready.length) {
    return new Command({ update: { candidates: state.candidates.map((c) => finalCandidate(c, { accepted: null })) }, goto: "vote" });
  }
  const ctx = contextOf(state, !noLinking);
  const empty = state.candidates.filter((c) => !c.sql.trim()).map((c) => finalCandidate(c, { accepted: null, note: "no SQL to correct" }));
  return new Command({ update: empty.length ? { candidates: empty } : {}, goto: ready.map((candidate) => new Send("critic", { ctx, candidate, round: 0 } satisfies CandidatePayload)) });
};

/**
 * memo-refine's first node: the given SQL, executed, as the one candidate; or, with `candidates` (a file), the
 * question's fixed candidates, each executed; then one critic per candidate. A question missing from the file fails
 * (its record says why) rather than being corrected on other candidates than the other variants'.
 */
export const seedNode: MemoNodeFactory<MemoStateValue> = (deps, options) => async (state) => {
  const { candidates: file } = readOptions(MEMO_REFINE_OPTIONS, options);
  if (file) return seedFromFile(deps, options, state, file);
  const execution = await executeSql(deps.executor, state.dbPath, state.sql, options);
  const candidate: Candidate = { id: "initial", sql: state.sql, source: "initial", execution, meta: { order: 0, rounds: 0, final: false, verdicts: [] } };
  if (!state.sql.trim()) return new Command({ update: { candidates: [finalCandidate(candidate, { accepted: null, note: "no SQL to correct" })], execution }, goto: "vote" });
  const ctx = contextOf(state, !readOptions(MEMO_REFINE_OPTIONS, options).noLinking);
  return new Command({ update: { candidates: [candidate], execution }, goto: new Send("critic", { ctx, candidate, round: 0 } satisfies CandidatePayload) });
};

async function seedFromFile(deps: NodeDeps, options: GraphOptions, state: MemoStateValue, file: string) {
  const cwd = (options as { cwd?: unknown }).cwd;
  const set = loadCandidateSets(file, typeof cwd === "string" ? cwd : undefined).questions[state.questionId];
  const same = (a: string, b: string) => a.replace(/\s+/g, " ").trim().toLowerCase() === b.replace(/\s+/g, " ").trim().toLowerCase();
  if (!set) throw new Error(`question ${state.questionId} is not in the candidates file ${file}`);
  if (set.dbId !== state.dbId || !same(set.question, state.question)) throw new Error(`the candidates file ${file} holds another question under id ${state.questionId} (${set.dbId}: ${set.question})`);
  const candidates: Candidate[] = await Promise.all(
    set.candidates.map(async (c, order) => ({
      id: c.id,
      sql: c.sql,
      source: "candidates-file",
      execution: await executeSql(deps.executor, state.dbPath, c.sql, options),
      meta: { order, rounds: 0, final: false, verdicts: [] },
    })),
  );
  const ready = candidates.filter((c) => c.sql.trim());
  const empty = candidates.filter((c) => !c.sql.trim()).map((c) => finalCandidate(c, { accepted: null, note: "no SQL to correct" }));
  // The critic's context as memo-sql's critic gets it: linked columns and values included (unless --no-linking).
  const ctx = contextOf(state, !readOptions(MEMO_REFINE_OPTIONS, options).noLinking);
  return new Command({
    update: { candidates: [...ready, ...empty] },
    goto: ready.length ? ready.map((candidate) => new Send("critic", { ctx, candidate, round: 0 } satisfies CandidatePayload)) : "vote",
  });
}

/**
 * The vote (§3.5, A.4): candidates grouped by the fingerprint of their full result; execution errors excluded; empty
 * results kept (`keep`) or left out unless nothing else ran (`discard`, Alpha-SQL's protocol). The biggest group
 * wins. Tie-break: the group whose first member comes earliest in candidate order (paths table-wise → hierarchical →
 * atomic, styles flat JOIN → CTE → nested); that member is the answer. Nothing ran: the first candidate with SQL.
 */
export function majorityVote(candidates: Candidate[], voteEmpty: "keep" | "discard"): MemoVote & { sql: string; execution: Execution | null } {
  const ordered = candidates.map((c, i) => ({ c, i })).sort((a, b) => (meta(a.c).order ?? a.i) - (meta(b.c).order ?? b.i) || a.i - b.i).map((x) => x.c);
  const split = splitBallots(ordered);
  const excluded: MemoVote["excluded"] = split.excluded;
  let pool: Candidate[] = split.pool;
  const isEmpty = (c: Candidate) => (c.execution?.preview?.rowCount ?? 0) === 0;
  if (voteEmpty === "discard" && pool.some((c) => !isEmpty(c))) {
    for (const c of pool.filter(isEmpty)) excluded.push({ id: c.id, reason: "empty result (voteEmpty=discard)" });
    pool = pool.filter((c) => !isEmpty(c));
  }
  // Equal counts stay in candidate order.
  const ranked = resultGroups(pool).map((g) => [g.fingerprint, g.members] as const);
  const summary = ranked.map(([fingerprint, members]) => ({ fingerprint, ids: members.map((m) => m.id), empty: isEmpty(members[0]!) }));
  const top = ranked[0];
  if (top) {
    const winner = top[1][0]!;
    const tie = ranked.length > 1 && ranked[1]![1].length === top[1].length;
    return { winner: winner.id, groups: summary, excluded, rule: tie ? `tie at ${top[1].length} votes: earliest candidate's group` : `majority (${top[1].length} of ${pool.length})`, sql: winner.sql, execution: winner.execution ?? null };
  }
  const fallback = ordered.find((c) => c.sql.trim());
  return { winner: fallback?.id ?? null, groups: [], excluded, rule: "no candidate executed: the first candidate with SQL", sql: fallback?.sql ?? "", execution: fallback?.execution ?? null };
}

/**
 * Slot `vote`: the gate after correction (it runs as each candidate finishes and decides once all are final), then
 * the majority vote. Out: sql, execution, memoVote.
 */
export const voteNode: MemoNodeFactory<MemoStateValue> = (_deps, options) => async (state) => {
  if (!state.candidates.length || state.candidates.some((c) => !meta(c).final)) return new Command({ goto: [] });
  const voteEmpty = (options.voteEmpty as "keep" | "discard" | undefined) ?? readOptions(MEMO_SQL_OPTIONS, {}).voteEmpty;
  const { sql, execution, ...vote } = majorityVote(state.candidates, voteEmpty);
  return new Command({
    update: { sql, execution, memoVote: vote, attempts: [{ node: "vote", sql, ok: !!execution?.ok, note: vote.rule }] },
    goto: END,
  });
};
