import { END, START, StateGraph } from "@langchain/langgraph";
import { MagicGuidelineState, MagicGuidelineInput } from "../state/magic.ts";
import type { NodeFactory } from "../nodes/types.ts";
import { mergeNode } from "../nodes/magic/guideline.ts";
import { magicGuidelineManifest } from "./manifests/magic.ts";
import { type BuildOptions, type GraphSpec, slotNode, specOf } from "./spec.ts";

/**
 * One merge of a batch of successful feedbacks into MAGIC's guideline (Figure 9), as a graph so that each merge is a
 * checkpointed thread: `sqlmend magic guideline` runs one thread per batch, and a resumed run finds finished merges
 * in their checkpoints instead of merging again.
 */
export const magicGuidelineSpec: GraphSpec = specOf(magicGuidelineManifest, {
  factories: { merge: mergeNode as unknown as NodeFactory },
  outcome: { of: (state) => ({ merged: state.merged === true, unusableReplies: typeof state.unusableReplies === "number" ? state.unusableReplies : 0 }) },
  steps: () => 1,
  build(deps, options: BuildOptions = {}) {
    const graph = new StateGraph(MagicGuidelineState, { input: MagicGuidelineInput })
      .addNode("merge", slotNode(magicGuidelineSpec, "merge", deps, options))
      .addEdge(START, "merge")
      .addEdge("merge", END)
      .compile({ checkpointer: options.checkpointer });
    graph.name = "magic-guideline";
    return graph;
  },
});
