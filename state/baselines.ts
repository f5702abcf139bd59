import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { sqlStateFields } from "./sql-state.ts";

/**
 * MAGIC Table 1's guideline-independent baselines as correctors: self-consistency and multiple-prompt (N samples, a
 * vote over execution results) and self-debugging (explain, judge, correct).
 */

/** How the vote over samples went (self-consistency, multiple-prompt): everything `outcome` reports. */
export const SampleVoteSchema = z.object({
  /** Samples asked for (`--samples`). */
  requested: z.number().int().nonnegative(),
  /** Why samples of one prompt were asked in separate requests rather than one request with `n` (null: they were not). */
  fallback: z.string().nullable().default(null),
  /** Distinct prompts sent: 1 for self-consistency; multiple-prompt's distinct table orders (fewer when the schema has few tables). */
  prompts: z.number().int().nonnegative(),
  /** Samples taken, with SQL, without SQL (no reply, or a reply holding none), and whose SQL failed to execute. */
  taken: z.number().int().nonnegative(),
  noSql: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  /** Samples left out of the vote and why (no SQL, execution error, result too large to fingerprint). */
  excluded: z.array(z.object({ id: z.string(), reason: z.string() })),
  /** Distinct results, biggest first: the samples that returned each. */
  groups: z.array(z.object({ fingerprint: z.string(), ids: z.array(z.string()) })),
  /** The chosen sample, or null when none executed (the initial SQL is kept). */
  winner: z.string().nullable(),
  /** Samples that returned the chosen result. */
  votes: z.number().int().nonnegative(),
  /** Another result had as many votes (the earliest sample's result won). */
  resultTie: z.boolean(),
  /** The chosen result came from several distinct SQL and the fastest was taken: its time and the slowest one's. */
  speedTie: z.object({ distinctSql: z.number().int(), chosenMs: z.number(), slowestMs: z.number() }).nullable(),
  /** No sample executed: the answer is the initial SQL. */
  keptInitial: z.boolean(),
  /** One line: the rule that decided. */
  rule: z.string(),
});
export type SampleVote = z.infer<typeof SampleVoteSchema>;

/** Graphs `self-consistency` and `multiple-prompt`: the samples live in the shared `candidates` (id `sample:NN`). */
export const votingStateFields = {
  ...sqlStateFields,
  /** The SQL the corrector was given: the answer when no sample executes. */
  initialSql: z.string().default(""),
  sampleVote: SampleVoteSchema.nullable().default(null),
};
export const VotingState = new StateSchema(votingStateFields);
export type VotingStateValue = typeof VotingState.State;
export type VotingStateUpdate = typeof VotingState.Update;

/** One self-debugging turn: what the explainer said of which SQL. */
export const ExplanationSchema = z.object({
  /** Debugging turns done before this explanation (0: the initial SQL). */
  turn: z.number().int().nonnegative(),
  sql: z.string(),
  /** correct / wrong as the explainer ended; `unclear` when its reply held no verdict (taken as wrong). */
  verdict: z.enum(["correct", "wrong", "unclear", "no reply"]),
  /** The explanation (cut at 4,000 characters). */
  text: z.string(),
});
export type Explanation = z.infer<typeof ExplanationSchema>;

const concat = <T>(current: T[], next: T[]) => current.concat(next);

/** Graph `self-debugging`. */
export const selfDebuggingStateFields = {
  ...sqlStateFields,
  initialSql: z.string().default(""),
  /** Debugging turns (SQL rewrites) done; the launcher reports it as iterations. */
  rounds: z.number().int().nonnegative().default(0),
  explanations: new ReducedValue(z.array(ExplanationSchema).default(() => []), { inputSchema: z.array(ExplanationSchema), reducer: concat }),
  /** The latest explanation's verdict (the debugger reads the explanation from `explanations`). */
  verdict: z.string().default(""),
  /** Set when the loop ends: judged correct, turn limit, explainer got no reply. */
  stopReason: z.string().default(""),
};
export const SelfDebuggingState = new StateSchema(selfDebuggingStateFields);
export type SelfDebuggingStateValue = typeof SelfDebuggingState.State;
export type SelfDebuggingStateUpdate = typeof SelfDebuggingState.Update;
