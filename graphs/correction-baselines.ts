import { END, START, StateGraph } from "@langchain/langgraph";
import { readOptions } from "../core/options.ts";
import { debugNode, explainNode } from "../nodes/baselines/debug.ts";
import { SELF_DEBUGGING_OPTIONS } from "../nodes/baselines/options.ts";
import { reorderedPromptsNode, sampleNode, samePromptNode, voteNode } from "../nodes/baselines/sample.ts";
import { type SampleVote, SelfDebuggingState, type SelfDebuggingStateValue, VotingState } from "../state/baselines.ts";
import { SqlInputState } from "../state/sql-state.ts";
import { multiplePromptManifest, selfConsistencyManifest, selfDebuggingManifest } from "./manifests/correction-baselines.ts";
import type { Outcome } from "./outcome.ts";
import { SHARED_FACTORIES } from "./slots.ts";
import { type BuildOptions, defineSpec, type SlotNodeOf } from "./spec.ts";

/**
 * MAGIC Table 1's guideline-independent baselines, as correctors: they run on the questions `--correct` selects,
 * from the SQL `--initial` gave (docs/methods/baselines.md).
 */

/** What the vote did, for results.jsonl and report.md: nothing a sample did goes unsaid. */
function votingOutcome(state: Record<string, unknown>): Outcome {
  const vote = state.sampleVote as SampleVote | null | undefined;
  if (!vote) return { samples: null };
  return {
    samples: vote.taken,
    prompts: vote.prompts,
    // Samples of one prompt sent one by one (the prompt billed each time) and why: counted in report.md.
    samplesSeparately: vote.fallback ?? null,
    samplesWithoutSql: vote.noSql,
    samplesFailed: vote.failed,
    // Left out of the vote for any reason: no SQL, an error, or a result too large to fingerprint.
    samplesExcluded: vote.excluded.length,
    distinctResults: vote.groups.length,
    votes: vote.votes,
    resultTie: vote.resultTie,
    tieBrokenBySpeed: vote.speedTie !== null,
    allSamplesFailed: vote.keptInitial,
    decision: vote.keptInitial ? "all samples failed: initial SQL kept" : vote.resultTie ? "tie: earliest sample's result" : "majority",
  };
}

/** `[schema →] prompts → sample ×N → vote → execute → END`; multiple-prompt has no schema node (`prompts` renders its own). */
function votingGraph(node: SlotNodeOf, options: BuildOptions, withSchema: boolean) {
  // Every sample is one task of one step: vote runs once, after all of them.
  const tail = new StateGraph(VotingState, { input: SqlInputState })
    .addNode("prompts", node("prompts"), { ends: ["sample"] })
    .addNode("sample", node("sample"))
    .addNode("vote", node("vote"))
    .addNode("execute", node("execute"))
    .addEdge("sample", "vote")
    .addEdge("vote", "execute")
    .addEdge("execute", END);
  const graph = withSchema ? tail.addNode("schema", node("schema")).addEdge(START, "schema").addEdge("schema", "prompts") : tail.addEdge(START, "prompts");
  // At most 8 tasks of a step at once (the default request cap): each running task listens on the run's abort
  // signal, and past 10 listeners Node warns of a leak once per question.
  return graph.compile({ checkpointer: options.checkpointer }).withConfig({ maxConcurrency: 8 });
}

export const selfConsistencySpec = defineSpec(selfConsistencyManifest, {
  state: VotingState,
  factories: { schema: SHARED_FACTORIES.schema, prompts: samePromptNode, sample: sampleNode, vote: voteNode, execute: SHARED_FACTORIES.execute },
  outcome: { of: votingOutcome },
  steps: () => 5,
  build: (_deps, options, node) => votingGraph(node, options, true),
});

export const multiplePromptSpec = defineSpec(multiplePromptManifest, {
  state: VotingState,
  factories: { prompts: reorderedPromptsNode, sample: sampleNode, vote: voteNode, execute: SHARED_FACTORIES.execute },
  outcome: { of: votingOutcome },
  steps: () => 4,
  build: (_deps, options, node) => votingGraph(node, options, false),
});

/** After explain: debug unless the explainer stopped the loop (its stopReason says why). */
const routeAfterExplain = (state: SelfDebuggingStateValue): "debug" | typeof END => (state.stopReason ? END : "debug");

export const selfDebuggingSpec = defineSpec(selfDebuggingManifest, {
  state: SelfDebuggingState,
  factories: { schema: SHARED_FACTORIES.schema, execute: SHARED_FACTORIES.execute, explain: explainNode, debug: debugNode },
  outcome: {
    of: (state) => ({
      debugTurns: typeof state.rounds === "number" ? state.rounds : 0,
      stopReason: typeof state.stopReason === "string" && state.stopReason ? state.stopReason : null,
      stoppedByTurnLimit: state.stopReason === "turn limit",
      debugRepliesWithoutSql: Array.isArray(state.attempts) ? state.attempts.filter((a: { node?: string; ok?: boolean }) => a.node === "debug" && !a.ok).length : 0,
      unclearVerdicts: Array.isArray(state.explanations) ? state.explanations.filter((e: { verdict?: string }) => e.verdict === "unclear").length : 0,
      changed: typeof state.initialSql === "string" && typeof state.sql === "string" ? state.sql !== state.initialSql : null,
    }),
  },
  steps: (options) => 3 + 3 * readOptions(SELF_DEBUGGING_OPTIONS, options).maxTurns,
  build(_deps, options, node) {
    const graph = new StateGraph(SelfDebuggingState, { input: SqlInputState })
      .addNode("schema", node("schema"))
      .addNode("execute", node("execute"))
      .addNode("explain", node("explain"))
      .addNode("debug", node("debug"))
      .addEdge(START, "schema")
      .addEdge("schema", "execute")
      .addEdge("execute", "explain")
      .addConditionalEdges("explain", routeAfterExplain, ["debug", END])
      .addEdge("debug", "execute")
      .compile({ checkpointer: options.checkpointer });
    return graph;
  },
});
