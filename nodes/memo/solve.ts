import { Command, Send } from "@langchain/langgraph";
import { z } from "zod";
import { readOptions } from "../../core/options.ts";
import { type MemoPlan, type MemoStateValue, type MemoStep, STRATEGIES, type Strategy, STYLES, type Style } from "../../state/memo.ts";
import type { ModelCallRecord } from "../../state/usage.ts";
import { callModel, callStructured } from "../../tools/models/llm.ts";
import { extractSql, stripThinking } from "../../tools/reply.ts";
import { withCalls } from "../common.ts";
import { executeSql } from "../execute.ts";
import type { GraphOptions, NodeDeps, NodeFactory } from "../types.ts";
import { contextOf, type MemoContext, observe } from "./common.ts";
import { MAX_SUB_QUESTIONS, MEMO_SQL_OPTIONS } from "./options.ts";
import { actPrompt, decompositionSeed, decomposePrompt, reflectPrompt, revisePrompt } from "./prompts.ts";

/**
 * Memo-SQL's generation half (§3.3–3.4): three decompositions in parallel, each path's sub-questions in order through
 * act (reason → sub-SQL → execute) → reflect → revise once. Nodes reached by `Send` see only their payload (the
 * branch), write their records to the shared state, and name the next step with a `Command`.
 */

/** What a path's first `Send` carries: the question's context and the paradigm to decompose by. */
export interface DecomposePayload {
  ctx: MemoContext;
  strategy: Strategy;
}

export interface PathPayload {
  ctx: MemoContext;
  strategy: Strategy;
  plan: string[];
  index: number;
  /** This path's steps so far (act, reflect, revise records). */
  steps: MemoStep[];
  /** Later paths whose plan is the same as this one's: solved once, here, and given this path's candidates. */
  sharedWith?: Strategy[];
}

export interface WritePayload {
  ctx: MemoContext;
  strategy: Strategy;
  steps: MemoStep[];
  style: Style;
  /** Candidate order (strategy-major): the vote's tie-break. */
  order: number;
  /** The path's sub-questions (the writer's only guide under noReact, when there are no steps). */
  plan: string[];
  /** Later paths with the same plan: the writer's candidate is theirs too (`meta.sharedFrom`). */
  sharedWith?: Strategy[];
}

/** A Memo-SQL node: given its branch's payload (a `Send`), it returns the Command naming the branch's next step. */
export type MemoNodeFactory<P> = NodeFactory<P, Command>;

export { MAX_SUB_QUESTIONS };

export const DecompositionSchema = z.object({
  simple: z.boolean().default(false),
  fits: z.boolean().default(true),
  // At most what a path solves: the schema says so, nothing is cut after parsing.
  subQuestions: z.array(z.string()).max(MAX_SUB_QUESTIONS).default([]),
});

/** The first step of every path, or the next sub-question, or — once all are solved — the writers, one per style. */
export function advance(payload: PathPayload, steps: MemoStep[], options: GraphOptions): Send[] {
  if (payload.index + 1 < payload.plan.length) return [new Send("act", { ...payload, index: payload.index + 1, steps })];
  return writers(payload.ctx, payload.strategy, payload.plan, steps, options, payload.sharedWith);
}

/** One writer per style for a finished path (candidate order: strategy-major). */
function writers(ctx: MemoContext, strategy: Strategy, plan: string[], steps: MemoStep[], options: GraphOptions, sharedWith: Strategy[] = []): Send[] {
  const { styles } = readOptions(MEMO_SQL_OPTIONS, options);
  const strategyAt = STRATEGIES.indexOf(strategy);
  const shared = sharedWith.length ? { sharedWith } : {};
  return STYLES.slice(0, styles).map((style, s) => new Send("write", { ctx, strategy, steps, style, order: strategyAt * STYLES.length + s, plan, ...shared } satisfies WritePayload));
}

/**
 * Slot `decompose` (role `decomposer`), once per paradigm. In: { ctx, strategy }. Out: memoPlans (what was applied:
 * the paradigm; `none` when the model judges the question simple; `random` when it judges the paradigm a bad fit, or
 * under `decomposition random`), then the `paths` gate. A bad reply falls back to no decomposition.
 */
export const decomposeNode: MemoNodeFactory<DecomposePayload> = (deps, options) => async ({ ctx, strategy }) => {
  const { decomposition } = readOptions(MEMO_SQL_OPTIONS, options);
  const records: ModelCallRecord[] = [];
  const ask = async (paradigm: Strategy | "random") => {
    const reply = await callStructured(deps.models, "decomposer", decomposePrompt(ctx, paradigm, seed), DecompositionSchema, { name: "decomposition" });
    records.push(...reply.records);
    return reply;
  };
  let plan: MemoPlan;
  // A free decomposition carries this path's seed (the fallback's too), so the paths' free decompositions differ.
  const seed = decompositionSeed(ctx.question, STRATEGIES.indexOf(strategy));
  const first = await ask(decomposition === "random" ? "random" : strategy);
  const questions = (v: z.infer<typeof DecompositionSchema>) => v.subQuestions.map((q) => q.trim()).filter(Boolean).slice(0, MAX_SUB_QUESTIONS);
  if (!first.ok) plan = { strategy, applied: "none", subQuestions: [ctx.question], note: `decomposition failed (${first.error}); the question is solved whole` };
  else if (first.value.simple) plan = { strategy, applied: "none", subQuestions: [ctx.question], note: "judged too simple to decompose" };
  else if (!first.value.fits && decomposition !== "random") {
    const second = await ask("random");
    plan =
      second.ok && questions(second.value).length
        ? { strategy, applied: "random", subQuestions: questions(second.value), note: `the ${strategy} paradigm did not fit: a free decomposition`, seed: seed.seed }
        : { strategy, applied: "none", subQuestions: [ctx.question], note: "the paradigm did not fit and no other decomposition came back" };
  } else if (!questions(first.value).length) plan = { strategy, applied: "none", subQuestions: [ctx.question], note: "no sub-questions came back; the question is solved whole" };
  else plan = { strategy, applied: decomposition === "random" ? "random" : strategy, subQuestions: questions(first.value), ...(decomposition === "random" ? { seed: seed.seed } : {}) };
  return new Command({ update: withCalls({ memoPlans: [plan] }, records), goto: "paths" });
};

/** Two plans are the same path when their sub-questions read the same: every solver and writer prompt would too. */
const planKey = (plan: MemoPlan) => plan.subQuestions.map((q) => q.replace(/\s+/g, " ").trim()).join("\n");

/**
 * Slot `paths`: the gate after decomposition. It waits for every path's plan; paths with the same plan (a simple
 * question: every decomposer says so) are solved once, by the earliest path in candidate order, whose candidates
 * count for the others too (memoPlans[].solvedBy; the writer copies them). Then each distinct plan's first act, or
 * — under noReact (Table 5's "w/o ReAct+Reflect": no sub-SQL written, run or reflected on) — its writers.
 */
export const pathsNode: NodeFactory<MemoStateValue, Command> = (_deps, options) => async (state) => {
  if (STRATEGIES.some((s) => !state.memoPlans.some((p) => p.strategy === s))) return new Command({ goto: [] });
  const { noReact, noLinking } = readOptions(MEMO_SQL_OPTIONS, options);
  const ctx = contextOf(state, !noLinking);
  const plans = STRATEGIES.map((s) => state.memoPlans.find((p) => p.strategy === s)!);
  const leaders = new Map<string, { plan: MemoPlan; sharedWith: Strategy[] }>();
  const collapsed: MemoPlan[] = [];
  for (const plan of plans) {
    const leader = leaders.get(planKey(plan));
    if (!leader) leaders.set(planKey(plan), { plan, sharedWith: [] });
    else {
      leader.sharedWith.push(plan.strategy);
      collapsed.push({ ...plan, solvedBy: leader.plan.strategy });
    }
  }
  const goto = [...leaders.values()].flatMap(({ plan, sharedWith }) =>
    noReact
      ? writers(ctx, plan.strategy, plan.subQuestions, [], options, sharedWith)
      : [new Send("act", { ctx, strategy: plan.strategy, plan: plan.subQuestions, index: 0, steps: [], ...(sharedWith.length ? { sharedWith } : {}) } satisfies PathPayload)],
  );
  return new Command({ update: collapsed.length ? { memoPlans: collapsed } : {}, goto });
};

/** Slot `act` (role `solver`): reason about the current sub-question, write its sub-SQL, execute it. Then reflect (or move on under noReflect). */
export const actNode: MemoNodeFactory<PathPayload> = (deps, options) => async (payload) => {
  const { ctx, plan, index, steps } = payload;
  const call = await callModel(deps.models, "solver", actPrompt(ctx, plan, index, steps));
  const sql = call.ok ? extractSql(call.text) : null;
  const step = withReasoning(await observedStep(deps, options, payload, "act", sql, call.record.error ?? "reply holds no SQL"), call.ok ? call.text : "");
  const next = [...steps, step];
  const { noReflect } = readOptions(MEMO_SQL_OPTIONS, options);
  const goto = noReflect || !step.sql ? advance(payload, next, options) : [new Send("reflect", { ...payload, steps: next })];
  return new Command({ update: withCalls({ memoSteps: [step] }, [call.record]), goto });
};

export const ReflectionSchema = z.object({ problem: z.boolean(), issue: z.string().default("") });

/** Slot `reflect` (role `reflector`): shown the current step and every earlier one; a problem sends the step to revise (once). */
export const reflectNode: MemoNodeFactory<PathPayload> = (deps, options) => async (payload) => {
  const current = payload.steps.at(-1)!;
  const reply = await callStructured(deps.models, "reflector", reflectPrompt(payload.ctx, payload.plan, current, payload.steps.slice(0, -1)), ReflectionSchema, { name: "reflection" });
  const problem = reply.ok && reply.value.problem && reply.value.issue.trim() !== "";
  // A problem flagged without an issue gives the solver nothing to revise by: the step is kept, and says why.
  const observation = reply.ok ? (problem ? reply.value.issue.trim() : reply.value.problem ? "a problem flagged without saying what; step kept" : "no problem found") : `reflection failed (${reply.error}); step kept`;
  const step: MemoStep = { strategy: payload.strategy, index: payload.index, kind: "reflect", subQuestion: current.subQuestion, sql: current.sql, ok: current.ok, observation, problem };
  const next = [...payload.steps, step];
  return new Command({
    update: withCalls({ memoSteps: [step] }, reply.records),
    goto: problem ? [new Send("revise", { ...payload, steps: next })] : advance(payload, next, options),
  });
};

/** Slot `revise` (role `solver`): rewrite the step's sub-SQL once, given the reflection, and execute it; then the path moves on. */
export const reviseNode: MemoNodeFactory<PathPayload> = (deps, options) => async (payload) => {
  const reflection = payload.steps.at(-1)!;
  const acted = [...payload.steps].reverse().find((s) => s.kind === "act" && s.index === payload.index)!;
  const earlier = payload.steps.filter((s) => s.index < payload.index);
  const call = await callModel(deps.models, "solver", revisePrompt(payload.ctx, acted, reflection.observation, earlier));
  const sql = call.ok ? extractSql(call.text) : null;
  // An unusable revision keeps the acted SQL (and says why).
  const step = withReasoning(
    sql
      ? await observedStep(deps, options, payload, "revise", sql, "")
      : { ...acted, kind: "revise" as const, observation: `${call.record.error ?? "reply holds no SQL"}; kept the step's SQL: ${acted.observation}` },
    call.ok ? call.text : "",
  );
  const next = [...payload.steps, step];
  return new Command({ update: withCalls({ memoSteps: [step] }, [call.record]), goto: advance(payload, next, options) });
};

async function observedStep(deps: NodeDeps, options: GraphOptions, payload: PathPayload, kind: "act" | "revise", sql: string | null, why: string): Promise<MemoStep> {
  const base = { strategy: payload.strategy, index: payload.index, kind, subQuestion: payload.plan[payload.index]! };
  if (!sql) return { ...base, sql: "", ok: false, observation: why };
  const execution = await executeSql(deps.executor, payload.ctx.dbPath, sql, options);
  return { ...base, sql, ok: execution.ok, observation: observe(execution) };
}

/** The solver's reasoning: its reply without thinking tags and SQL blocks (the SQL is the step's own field). */
function withReasoning(step: MemoStep, reply: string): MemoStep {
  const reasoning = stripThinking(reply).replace(/```[a-zA-Z]*\n[\s\S]*?```/g, "").trim();
  const { reasoning: _dropped, ...rest } = step;
  return reasoning ? { ...rest, reasoning } : rest;
}
