import { SqlInputState } from "../state/sql-state.ts";
import { END, START, StateGraph } from "@langchain/langgraph";
import { MagicState } from "../state/magic.ts";
import { applyGuidelineNode, keepExecutableNode } from "../nodes/magic/guideline.ts";
import { magicManifest } from "./manifests/magic.ts";
import { SHARED_FACTORIES } from "./slots.ts";
import { defineSpec } from "./spec.ts";

/**
 * MAGIC at inference (Figure 1): a corrector that applies a self-correction guideline to the SQL it is given:
 * schema → correct (walk the guideline's ask-yourself questions, revise) → check (a revision that does not execute
 * gives way to the initial SQL) → done.
 */
export const magicSpec = defineSpec(magicManifest, {
  state: MagicState,
  factories: {
    schema: SHARED_FACTORIES.schema,
    correct: applyGuidelineNode,
    check: keepExecutableNode,
  },
  // What each question went through: which guideline, and whether its revision was kept.
  outcome: {
    of: (state) => ({
      guidelineHash: typeof state.guidelineHash === "string" && state.guidelineHash ? state.guidelineHash : null,
      revision: typeof state.revision === "string" && state.revision ? state.revision : null,
    }),
    // The guideline changed an answer (a revision kept): else the run only re-scored its initial SQL.
    defining: { step: "a guideline-driven revision kept", happened: (o) => o.revision === "revised" },
  },
  steps: () => 3,
  build(_deps, options, node) {
    const graph = new StateGraph(MagicState, { input: SqlInputState })
      .addNode("schema", node("schema"))
      .addNode("correct", node("correct"))
      .addNode("check", node("check"))
      .addEdge(START, "schema")
      .addEdge("schema", "correct")
      .addEdge("correct", "check")
      .addEdge("check", END)
      .compile({ checkpointer: options.checkpointer });
    return graph;
  },
});
