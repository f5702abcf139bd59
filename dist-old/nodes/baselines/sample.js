import { Command, Send } from "@langchain/langgraph";
import { readOptions } from "../../core/options.js";
import { quickHash } from "../../tools/hash.js";
import { sampleSeed } from "../../tools/models/sample-seed.js";
import { callModel } from "../../tools/models/llm.js";
import { extractSql } from "../../tools/reply.js";
import { readSchema, renderSchema } from "../../tools/schema.js";
import { normaliseSql } from "../../tools/sql-normalise.js";
import { DEFAULTS, withCalls } from "../common.js";
import { executeSql } from "../execute.js";
import { generationPrompt } from "../prompts.js";
import { resultGroups, splitBallots } from "../vote.js";
import { SELF_CONSISTENCY_OPTIONS } from "./options.js";
const sampleId = (index) => `sample:${String(index + 1).padStart(2, "0")}`;
const payloadOf = (state, index, schemaText) => ({
    index,
    question: state.question,
    evidence: state.evidence,
    dbPath: state.dbPath,
    schemaText,
});
/**
 * Slot `prompts` of self-consistency (no model): N samples of the same generation prompt, one `Send` each. The
 * response cache numbers identical requests per thread, so N identical prompts stay N samples. Out: initialSql.
 */
export const samePromptNode = (_deps, options) => async (state) => {
    const { samples } = readOptions(SELF_CONSISTENCY_OPTIONS, options);
    return new Command({
        update: { initialSql: state.sql },
        goto: Array.from({ length: samples }, (_, i) => new Send("sample", payloadOf(state, i, state.schemaText))),
    });
};
/** A small deterministic generator (mulberry32) seeded by a string: the same question gets the same orders. */
function seeded(seed) {
    let a = Number.parseInt(quickHash(seed).slice(0, 8), 16) >>> 0;
    return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
}
function permutations(items) {
    if (items.length <= 1)
        return [items];
    return items.flatMap((item, i) => permutations([...items.slice(0, i), ...items.slice(i + 1)]).map((rest) => [item, ...rest]));
}
/**
 * Up to `n` distinct orders of `names`, the schema's own order first. When there are at most n orders in all (n!
 * small) every one is used; otherwise seeded shuffles, repeats skipped.
 */
export function tableOrders(names, n, seed) {
    let total = 1;
    for (let k = 2; k <= names.length && total <= n; k++)
        total *= k;
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
            [order[i], order[j]] = [order[j], order[i]];
        }
        const key = order.join("\0");
        if (!seen.has(key))
            orders.push(order), seen.add(key);
    }
    return orders;
}
/**
 * Slot `prompts` of multiple-prompt (no model): the schema with its tables in up to N distinct orders (Lee et al.
 * re-order the candidate tables; we re-order every table, as this graph does not link first), one prompt and one
 * `Send` per order. Fewer tables than N orders allow give fewer prompts (`sampleVote.prompts`). Out: initialSql.
 */
export const reorderedPromptsNode = (deps, options) => async (state) => {
    const { samples } = readOptions(SELF_CONSISTENCY_OPTIONS, options);
    const schema = await readSchema(state.dbPath, { descriptionDir: state.descriptionDir || undefined, executor: deps.executor });
    const byName = new Map(schema.tables.map((t) => [t.name, t]));
    const orders = tableOrders(schema.tables.map((t) => t.name), samples, `${state.dbId}\0${state.questionId}\0${state.question}`);
    const render = (order) => renderSchema({ ...schema, tables: order.map((name) => byName.get(name)) }, { question: state.question, evidence: state.evidence, maxChars: options.schemaMaxChars ?? DEFAULTS.schemaMaxChars });
    return new Command({
        update: { initialSql: state.sql },
        goto: orders.map((order, i) => new Send("sample", { ...payloadOf(state, i, render(order)), tableOrder: order })),
    });
};
/**
 * Slot `sample` (role `sampler`, at `--sample-temperature`), one per `Send`: the shared generation prompt (the
 * `generate` slot's, zero-shot) on the payload's schema; the SQL executed at once. Out: one candidate `sample:NN`
 * (meta: index, its seed under `--seed`, and the table order it was shown); a reply without SQL is a candidate without SQL, said in attempts.
 */
export const sampleNode = (deps, options) => async (payload) => {
    const { sampleTemperature } = readOptions(SELF_CONSISTENCY_OPTIONS, options);
    const prompt = generationPrompt({ schemaText: payload.schemaText, question: payload.question, evidence: payload.evidence, examples: [] });
    // Under --seed every sample gets its own seed, made from the run's and its index: one seed for all N identical
    // prompts would make the server sample one reply N times.
    const seed = sampleSeed(deps.models, "sampler", payload.index);
    const call = await callModel(deps.models, "sampler", prompt, { overrides: { temperature: sampleTemperature, ...(seed !== undefined ? { seed } : {}) } });
    const sql = (call.ok ? extractSql(call.text) : null) ?? "";
    if (!sql)
        call.record.error = call.record.error ?? "reply holds no SQL";
    const execution = await executeSql(deps.executor, payload.dbPath, sql, options);
    const candidate = {
        id: sampleId(payload.index),
        sql,
        source: "sampler",
        execution,
        meta: { index: payload.index, ...(seed !== undefined ? { seed } : {}), ...(payload.tableOrder ? { tableOrder: payload.tableOrder } : {}) },
    };
    const note = !sql ? `${call.record.error}; no SQL in this sample` : execution.ok ? undefined : `${execution.errorKind}: ${execution.error}`;
    return withCalls({ candidates: [candidate], attempts: [{ node: "sample", sql, ok: !!sql && execution.ok, ...(note ? { note } : {}) }] }, [call.record]);
};
const indexOf = (c) => (typeof c.meta?.index === "number" ? c.meta.index : Number.MAX_SAFE_INTEGER);
/**
 * The vote (MAGIC §4, "Baselines"): every sample executed, the SQL of the most frequently returned result wins
 * (results compared by fingerprint, `nodes/vote.ts`). Two results with as many votes: the earliest sample's (the
 * paper does not say). One result from several distinct SQL: the fastest of them, by the time its sample ran in (the
 * paper compares their efficiency). No sample executed: the initial SQL is kept and `keptInitial` says so.
 */
export function voteOnSamples(candidates, initialSql, requested) {
    const samples = candidates.filter((c) => c.source === "sampler").sort((a, b) => indexOf(a) - indexOf(b));
    const { pool, excluded } = splitBallots(samples);
    const prompts = new Set(samples.map((c) => JSON.stringify(c.meta?.tableOrder ?? null))).size;
    const counts = {
        requested,
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
    const resultTie = ranked.length > 1 && ranked[1].members.length === top.members.length;
    // The fastest distinct SQL of the winning result; one SQL sampled several times counts at its fastest run.
    const fastest = new Map();
    for (const m of top.members) {
        const key = normaliseSql(m.sql);
        const seen = fastest.get(key);
        if (!seen || m.execution.elapsedMs < seen.execution.elapsedMs)
            fastest.set(key, m);
    }
    const distinct = [...fastest.values()];
    const winner = distinct.reduce((a, b) => (b.execution.elapsedMs < a.execution.elapsedMs ? b : a));
    const speedTie = distinct.length > 1 ? { distinctSql: distinct.length, chosenMs: winner.execution.elapsedMs, slowestMs: Math.max(...distinct.map((d) => d.execution.elapsedMs)) } : null;
    const rule = `${resultTie ? `tie at ${top.members.length} votes: the earliest sample's result` : `majority (${top.members.length} of ${pool.length} executed)`}` +
        (speedTie ? `; fastest of ${distinct.length} distinct SQL (${speedTie.chosenMs.toFixed(1)} ms, slowest ${speedTie.slowestMs.toFixed(1)} ms)` : "");
    return { sql: winner.sql, vote: { ...counts, groups, winner: winner.id, votes: top.members.length, resultTie, speedTie, keptInitial: false, rule } };
}
/** Slot `vote` (no model): runs once all samples are in (they end in one step). Out: sql, sampleVote; then `execute`. */
export const voteNode = (_deps, options) => async (state) => {
    const { samples } = readOptions(SELF_CONSISTENCY_OPTIONS, options);
    const { sql, vote } = voteOnSamples(state.candidates, state.initialSql, samples);
    return { sql, sampleVote: vote, attempts: [{ node: "vote", sql, ok: !vote.keptInitial, note: vote.rule }] };
};
