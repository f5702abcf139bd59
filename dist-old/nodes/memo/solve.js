import { Command, Send } from "@langchain/langgraph";
import { z } from "zod";
import { readOptions } from "../../core/options.js";
import { STRATEGIES, STYLES } from "../../state/memo.js";
import { callModel, callStructured } from "../../tools/models/llm.js";
import { extractSql, stripThinking } from "../../tools/reply.js";
import { withCalls } from "../common.js";
import { executeSql } from "../execute.js";
import { contextOf, observe } from "./common.js";
import { MAX_SUB_QUESTIONS, MEMO_SQL_OPTIONS } from "./options.js";
import { actPrompt, decompositionSeed, decomposePrompt, reflectPrompt, revisePrompt } from "./prompts.js";
export { MAX_SUB_QUESTIONS };
const DecompositionSchema = z.object({
    simple: z.boolean().default(false),
    fits: z.boolean().default(true),
    subQuestions: z.array(z.string()).default([]),
});
/** The first step of every path, or the next sub-question, or — once all are solved — the writers, one per style. */
export function advance(payload, steps, options) {
    if (payload.index + 1 < payload.plan.length)
        return [new Send("act", { ...payload, index: payload.index + 1, steps })];
    return writers(payload.ctx, payload.strategy, payload.plan, steps, options, payload.sharedWith);
}
/** One writer per style for a finished path (candidate order: strategy-major). */
function writers(ctx, strategy, plan, steps, options, sharedWith = []) {
    const { styles } = readOptions(MEMO_SQL_OPTIONS, options);
    const strategyAt = STRATEGIES.indexOf(strategy);
    const shared = sharedWith.length ? { sharedWith } : {};
    return STYLES.slice(0, styles).map((style, s) => new Send("write", { ctx, strategy, steps, style, order: strategyAt * STYLES.length + s, plan, ...shared }));
}
/**
 * Slot `decompose` (role `decomposer`), once per paradigm. In: { ctx, strategy }. Out: memoPlans (what was applied:
 * the paradigm; `none` when the model judges the question simple; `random` when it judges the paradigm a bad fit, or
 * under `decomposition random`), then the `paths` gate. A bad reply falls back to no decomposition.
 */
export const decomposeNode = (deps, options) => async ({ ctx, strategy }) => {
    const { decomposition } = readOptions(MEMO_SQL_OPTIONS, options);
    const records = [];
    const ask = async (paradigm) => {
        const reply = await callStructured(deps.models, "decomposer", decomposePrompt(ctx, paradigm, seed), DecompositionSchema, { name: "decomposition" });
        records.push(...reply.records);
        return reply;
    };
    let plan;
    // A free decomposition carries this path's seed (the fallback's too), so the paths' free decompositions differ.
    const seed = decompositionSeed(ctx.question, STRATEGIES.indexOf(strategy));
    const first = await ask(decomposition === "random" ? "random" : strategy);
    const questions = (v) => v.subQuestions.map((q) => q.trim()).filter(Boolean).slice(0, MAX_SUB_QUESTIONS);
    if (!first.ok)
        plan = { strategy, applied: "none", subQuestions: [ctx.question], note: `decomposition failed (${first.error}); the question is solved whole` };
    else if (first.value.simple)
        plan = { strategy, applied: "none", subQuestions: [ctx.question], note: "judged too simple to decompose" };
    else if (!first.value.fits && decomposition !== "random") {
        const second = await ask("random");
        plan =
            second.ok && questions(second.value).length
                ? { strategy, applied: "random", subQuestions: questions(second.value), note: `the ${strategy} paradigm did not fit: a free decomposition`, seed: seed.seed }
                : { strategy, applied: "none", subQuestions: [ctx.question], note: "the paradigm did not fit and no other decomposition came back" };
    }
    else if (!questions(first.value).length)
        plan = { strategy, applied: "none", subQuestions: [ctx.question], note: "no sub-questions came back; the question is solved whole" };
    else
        plan = { strategy, applied: decomposition === "random" ? "random" : strategy, subQuestions: questions(first.value), ...(decomposition === "random" ? { seed: seed.seed } : {}) };
    return new Command({ update: withCalls({ memoPlans: [plan] }, records), goto: "paths" });
};
/** Two plans are the same path when their sub-questions read the same: every solver and writer prompt would too. */
const planKey = (plan) => plan.subQuestions.map((q) => q.replace(/\s+/g, " ").trim()).join("\n");
/**
 * Slot `paths`: the gate after decomposition. It waits for every path's plan; paths with the same plan (a simple
 * question: every decomposer says so) are solved once, by the earliest path in candidate order, whose candidates
 * count for the others too (memoPlans[].solvedBy; the writer copies them). Then each distinct plan's first act, or
 * — under noReact (Table 5's "w/o ReAct+Reflect": no sub-SQL written, run or reflected on) — its writers.
 */
export const pathsNode = (_deps, options) => async (state) => {
    if (STRATEGIES.some((s) => !state.memoPlans.some((p) => p.strategy === s)))
        return new Command({ goto: [] });
    const { noReact, noLinking } = readOptions(MEMO_SQL_OPTIONS, options);
    const ctx = contextOf(state, !noLinking);
    const plans = STRATEGIES.map((s) => state.memoPlans.find((p) => p.strategy === s));
    const leaders = new Map();
    const collapsed = [];
    for (const plan of plans) {
        const leader = leaders.get(planKey(plan));
        if (!leader)
            leaders.set(planKey(plan), { plan, sharedWith: [] });
        else {
            leader.sharedWith.push(plan.strategy);
            collapsed.push({ ...plan, solvedBy: leader.plan.strategy });
        }
    }
    const goto = [...leaders.values()].flatMap(({ plan, sharedWith }) => noReact
        ? writers(ctx, plan.strategy, plan.subQuestions, [], options, sharedWith)
        : [new Send("act", { ctx, strategy: plan.strategy, plan: plan.subQuestions, index: 0, steps: [], ...(sharedWith.length ? { sharedWith } : {}) })]);
    return new Command({ update: collapsed.length ? { memoPlans: collapsed } : {}, goto });
};
/** Slot `act` (role `solver`): reason about the current sub-question, write its sub-SQL, execute it. Then reflect (or move on under noReflect). */
export const actNode = (deps, options) => async (payload) => {
    const { ctx, plan, index, steps } = payload;
    const call = await callModel(deps.models, "solver", actPrompt(ctx, plan, index, steps));
    const sql = call.ok ? extractSql(call.text) : null;
    const step = withReasoning(await observedStep(deps, options, payload, "act", sql, call.record.error ?? "reply holds no SQL"), call.ok ? call.text : "");
    const next = [...steps, step];
    const { noReflect } = readOptions(MEMO_SQL_OPTIONS, options);
    const goto = noReflect || !step.sql ? advance(payload, next, options) : [new Send("reflect", { ...payload, steps: next })];
    return new Command({ update: withCalls({ memoSteps: [step] }, [call.record]), goto });
};
const ReflectionSchema = z.object({ problem: z.boolean(), issue: z.string().default("") });
/** Slot `reflect` (role `reflector`): shown the current step and every earlier one; a problem sends the step to revise (once). */
export const reflectNode = (deps, options) => async (payload) => {
    const current = payload.steps.at(-1);
    const reply = await callStructured(deps.models, "reflector", reflectPrompt(payload.ctx, payload.plan, current, payload.steps.slice(0, -1)), ReflectionSchema, { name: "reflection" });
    const problem = reply.ok && reply.value.problem && reply.value.issue.trim() !== "";
    const observation = reply.ok ? (problem ? reply.value.issue.trim() : "no problem found") : `reflection failed (${reply.error}); step kept`;
    const step = { strategy: payload.strategy, index: payload.index, kind: "reflect", subQuestion: current.subQuestion, sql: current.sql, ok: current.ok, observation, problem };
    const next = [...payload.steps, step];
    return new Command({
        update: withCalls({ memoSteps: [step] }, reply.records),
        goto: problem ? [new Send("revise", { ...payload, steps: next })] : advance(payload, next, options),
    });
};
/** Slot `revise` (role `solver`): rewrite the step's sub-SQL once, given the reflection, and execute it; then the path moves on. */
export const reviseNode = (deps, options) => async (payload) => {
    const reflection = payload.steps.at(-1);
    const acted = [...payload.steps].reverse().find((s) => s.kind === "act" && s.index === payload.index);
    const earlier = payload.steps.filter((s) => s.index < payload.index);
    const call = await callModel(deps.models, "solver", revisePrompt(payload.ctx, acted, reflection.observation, earlier));
    const sql = call.ok ? extractSql(call.text) : null;
    // An unusable revision keeps the acted SQL (and says why).
    const step = withReasoning(sql
        ? await observedStep(deps, options, payload, "revise", sql, "")
        : { ...acted, kind: "revise", observation: `${call.record.error ?? "reply holds no SQL"}; kept the step's SQL: ${acted.observation}` }, call.ok ? call.text : "");
    const next = [...payload.steps, step];
    return new Command({ update: withCalls({ memoSteps: [step] }, [call.record]), goto: advance(payload, next, options) });
};
async function observedStep(deps, options, payload, kind, sql, why) {
    const base = { strategy: payload.strategy, index: payload.index, kind, subQuestion: payload.plan[payload.index] };
    if (!sql)
        return { ...base, sql: "", ok: false, observation: why };
    const execution = await executeSql(deps.executor, payload.ctx.dbPath, sql, options);
    return { ...base, sql, ok: execution.ok, observation: observe(execution) };
}
/** The solver's reasoning: its reply without thinking tags and SQL blocks (the SQL is the step's own field). */
function withReasoning(step, reply) {
    const reasoning = stripThinking(reply).replace(/```[a-zA-Z]*\n[\s\S]*?```/g, "").trim();
    const { reasoning: _dropped, ...rest } = step;
    return reasoning ? { ...rest, reasoning } : rest;
}
