import { Command, Send } from "@langchain/langgraph";
import { readOptions } from "../../core/options.ts";
import type { SampleVote, VotingStateUpdate, VotingStateValue } from "../../state/baselines.ts";
import type { Candidate } from "../../state/sql-state.ts";
import { quickHash, seededRandom } from "../../tools/hash.ts";
import { sampleSeed } from "../../tools/models/sample-seed.ts";
import { callModelChoices } from "../../tools/models/llm.ts";
import { extractSql } from "../../tools/reply.ts";
import { readSchema, renderSchema } from "../../tools/schema.ts";
import { normaliseSql } from "../../tools/sql-normalise.ts";
import { DEFAULTS, withCalls } from "../common.ts";
import { executeSql } from "../execute.ts";
import { generationPrompt } from "../prompts.ts";
import type { GraphOptions, NodeDeps, NodeFactory } from "../types.ts";
import { resultGroups, splitBallots } from "../vote.ts";
import { SELF_CONSISTENCY_OPTIONS } from "./options.ts";

/**
 * The voting baselines of MAGIC Table 1: self-consistency (Wang et al., 2022) samples the generation prompt N times;
 * multiple-prompt (Lee et al., 2024) sends up to N prompts that differ in the order of the schema's tables. Both
 * execute every sample and take the SQL of the most frequent result (`voteNode`).
 */

/** What one sample's `Send` carries: the prompt's parts (a `Send` target sees only its payload). */
export interface SamplePayload {
  index: number;
  question: string;
  evidence: string;
  dbPath: string;
  schemaText: string;
  /** Multiple-prompt: the table order this prompt shows. */
  tableOrder?: string[];
  /** Samples of this prompt, asked in one request (`n`) where the server takes it: indices index … index + count − 1. Default 1. */
  count?: number;
}

type VotingNode<P> = (payload: P) => Promise<Command | Record<string, unknown>>;

const sampleId = (index: number) => `sample:${String(index + 1).padStart(2, "0")}`;

const payloadOf = (state: VotingStateValue, index: number, schemaText: string): SamplePayload => ({
  index,
  question: state.question,
  evidence: state.evidence,
  dbPath: state.dbPath,
  schemaText,
});

/**
 * Slot `prompts` of self-consistency (no model): N samples of the same generation prompt, in one `Send` whose sample
 * asks them in one request (`n: N`), so the prompt is billed once. Out: initialSql.
 */
export const samePromptNode: NodeFactory<VotingStateValue, Command> = (_deps, options) => async (state) => {
  const { samples } = readOptions(SELF_CONSISTENCY_OPTIONS, options);
  return new Command({
    update: { initialSql: state.sql },
    goto: [new Send("sample", { ...payloadOf(state, 0, state.schemaText), count: samples } satisfies SamplePayload)],
  });
};

/** A small deterministic generator seeded by a string: the same question gets the same orders. */
const seeded = (seed: string): (() => number) => seededRandom(Number.parseInt(quickHash(seed).slice(0, 8), 16));

function permutations<T>(items: T[]): T[][] {
  if (items.length <= 1) return [items];
  return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}

/**
 * Up to `n` distinct orders of `names`, the schema's own order first. When there are at most n orders in all (n!
 * small) every one is used; otherwise seeded shuffles, repeats skipped.
 */
export function tableOrders(names: string[], n: number, seed: string): string[][] {
  let total = 1;
  for (let k = 2; k <= names.length && total <= n; k++) total *= k;
  if (total <= n) {
    const all = permutations(names);
    return [names, ...all.filter((p) => p.join("\0") !== names.join("\0"))];
  }
  const random = seeded(seed);
  const seen = new Set([names.join("\0")]);
  const orders = [names];
  for (let tries = 0; orders.length < n && tries < 100 * n; tries++) {
    const order = [...names];
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j]!, order[i]!];
    }
    const key = order.join("\0");
    if (!seen.has(key)) orders.push(order), seen.add(key);
  }
  return orders;
}

/**
 * Slot `prompts` of multiple-prompt (no model): the schema with its tables in up to N distinct orders (Lee et al.
 * re-order the candidate tables; we re-order every table, as this graph does not link first), one prompt and one
 * `Send` per order. Fewer tables than N orders allow give fewer prompts (`sampleVote.prompts`). Out: initialSql.
 */
export const reorderedPromptsNode: NodeFactory<VotingStateValue, Command> = (deps, options) => async (state) => {
  const { samples } = readOptions(SELF_CONSISTENCY_OPTIONS, options);
  const schema = await readSchema(state.dbPath, { descriptionDir: state.descriptionDir || undefined, executor: deps.executor });
  const byName = new Map(schema.tables.map((t) => [t.name, t]));
  const orders = tableOrders(schema.tables.map((t) => t.name), samples, `${state.dbId}\0${state.questionId}\0${state.question}`);
  const render = (order: string[]) =>
    renderSchema({ ...schema, tables: order.map((name) => byName.get(name)!) }, { question: state.question, evidence: state.evidence, maxChars: options.schemaMaxChars ?? DEFAULTS.schemaMaxChars });
  return new Command({
    update: { initialSql: state.sql },
    goto: orders.map((order, i) => new Send("sample", { ...payloadOf(state, i, render(order)), tableOrder: order } satisfies SamplePayload)),
  });
};

/**
 * Slot `sample` (role `sampler`, at `--sample-temperature`), one per `Send`: the shared generation prompt (the
 * `generate` slot's, zero-shot) on the payload's schema, `count` samples of it in one request (`n`) where the server
 * takes it, else separate requests and every candidate says why (`meta.fallback`); each SQL executed at once. Out: one
 * candidate `sample:NN` per sample (meta: index, its seed under `--seed`, the table order it was shown); a reply without
 * SQL is a candidate without SQL, said in attempts.
 */
export const sampleNode = (deps: NodeDeps, options: GraphOptions): VotingNode<SamplePayload> => async (payload) => {
  const { sampleTemperature } = readOptions(SELF_CONSISTENCY_OPTIONS, options);
  const prompt = generationPrompt({ schemaText: payload.schemaText, question: payload.question, evidence: payload.evidence, examples: [] });
  const count = Math.max(1, payload.count ?? 1);
  // Under --seed every sample gets its own seed, made from the run's and its index: one seed for all N identical
  // prompts would make the server sample one reply N times (a request with n takes the first's and draws N).
  const seedOf = (k: number) => sampleSeed(deps.models, "sampler", payload.index + k);
  const asked = await callModelChoices(deps.models, "sampler", prompt, count, { overrides: { temperature: sampleTemperature }, seedOf });
  const inOne = asked.fallback === null && count > 1 && asked.records.length === 1;
  const samples = await Promise.all(
    asked.choices.map(async (choice, k) => {
      const index = payload.index + k;
      const sql = (choice.ok ? extractSql(choice.text) : null) ?? "";
      const error = !choice.ok ? (asked.records.find((r) => r.error?.startsWith("model call failed"))?.error ?? "model call failed") : "reply holds no SQL";
      const execution = await executeSql(deps.executor, payload.dbPath, sql, options);
      const seed = inOne ? (k === 0 ? seedOf(0) : undefined) : seedOf(k);
      const candidate: Candidate = {
        id: sampleId(index),
        sql,
        source: "sampler",
        execution,
        meta: {
          index,
          ...(seed !== undefined ? { seed } : {}),
          ...(payload.tableOrder ? { tableOrder: payload.tableOrder } : {}),
          ...(count > 1 ? { request: inOne ? `one request for ${count} samples` : "separate requests" } : {}),
          ...(asked.fallback ? { fallback: asked.fallback } : {}),
        },
      };
      const note = !sql ? `${error}; no SQL in this sample` : execution.ok ? undefined : `${execution.errorKind}: ${execution.error}`;
      return { candidate, attempt: { node: "sample", sql, ok: !!sql && execution.ok, ...(note ? { note } : {}) } };
    }),
  );
  // One reply without SQL in a single-sample call: its record says so (as before).
  if (count === 1 && asked.records[0] && !samples[0]!.candidate.sql) asked.records[0].error = asked.records[0].error ?? "reply holds no SQL";
  return withCalls({ candidates: samples.map((s) => s.candidate), attempts: samples.map((s) => s.attempt) }, asked.records);
};

const indexOf = (c: Candidate) => (typeof c.meta?.index === "number" ? c.meta.index : Number.MAX_SAFE_INTEGER);

/**
 * The vote (MAGIC §4, "Baselines"): every sample executed, the SQL of the most frequently returned result wins
 * (results compared by fingerprint, `nodes/vote.ts`). Two results with as many votes: the earliest sample's (the
 * paper does not say). One result from several distinct SQL: the fastest of them, by the time its sample ran in (the
 * paper compares their efficiency). No sample executed: the initial SQL is kept and `keptInitial` says so.
 */
export function voteOnSamples(candidates: Candidate[], initialSql: string, requested: number): { sql: string; vote: SampleVote } {
  const samples = candidates.filter((c) => c.source === "sampler").sort((a, b) => indexOf(a) - indexOf(b));
  const { pool, excluded } = splitBallots(samples);
  const prompts = new Set(samples.map((c) => JSON.stringify(c.meta?.tableOrder ?? null))).size;
  // Why samples asked together were sent one by one (the server refused n, returned fewer choices, ...), if they were.
  const fallback = samples.map((c) => c.meta?.fallback).find((f): f is string => typeof f === "string") ?? null;
  const counts = {
    requested,
    fallback,
    prompts,
    taken: samples.length,
    noSql: samples.filter((c) => !c.sql.trim()).length,
    failed: samples.filter((c) => c.sql.trim() && !c.execution?.ok).length,
    excluded,
  };
  const ranked = resultGroups(pool);
  const groups = ranked.map((g) => ({ fingerprint: g.fingerprint, ids: g.members.map((m) => m.id) }));
  const top = ranked[0];
  if (!top) {
    const rule = `no sample executed (${samples.length} taken): the initial SQL is kept`;
    return { sql: initialSql, vote: { ...counts, groups, winner: null, votes: 0, resultTie: false, speedTie: null, keptInitial: true, rule } };
  }
  const resultTie = ranked.length > 1 && ranked[1]!.members.length === top.members.length;
  // The fastest distinct SQL of the winning result; one SQL sampled several times counts at its fastest run.
  const fastest = new Map<string, Candidate>();
  for (const m of top.members) {
    const key = normaliseSql(m.sql);
    const seen = fastest.get(key);
    if (!seen || m.execution!.elapsedMs < seen.execution!.elapsedMs) fastest.set(key, m);
  }
  const distinct = [...fastest.values()];
  const winner = distinct.reduce((a, b) => (b.execution!.elapsedMs < a.execution!.elapsedMs ? b : a));
  const speedTie = distinct.length > 1 ? { distinctSql: distinct.length, chosenMs: winner.execution!.elapsedMs, slowestMs: Math.max(...distinct.map((d) => d.execution!.elapsedMs)) } : null;
  const rule =
    `${resultTie ? `tie at ${top.members.length} votes: the earliest sample's result` : `majority (${top.members.length} of ${pool.length} executed)`}` +
    (speedTie ? `; fastest of ${distinct.length} distinct SQL (${speedTie.chosenMs.toFixed(1)} ms, slowest ${speedTie.slowestMs.toFixed(1)} ms)` : "");
  return { sql: winner.sql, vote: { ...counts, groups, winner: winner.id, votes: top.members.length, resultTie, speedTie, keptInitial: false, rule } };
}

/** Slot `vote` (no model): runs once all samples are in (they end in one step). Out: sql, sampleVote; then `execute`. */
export const voteNode: NodeFactory<VotingStateValue, VotingStateUpdate | Command> = (_deps, options) => async (state) => {
  const { samples } = readOptions(SELF_CONSISTENCY_OPTIONS, options);
  const { sql, vote } = voteOnSamples(state.candidates, state.initialSql, samples);
  return { sql, sampleVote: vote, attempts: [{ node: "vote", sql, ok: !vote.keptInitial, note: vote.rule }] };
};
