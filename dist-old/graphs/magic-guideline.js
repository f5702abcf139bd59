import { END, START, StateGraph } from "@langchain/langgraph";
import { MagicGuidelineState, MagicGuidelineInput } from "../state/magic.js";
import { mergeNode } from "../nodes/magic/guideline.js";
import { magicGuidelineManifest } from "./manifests/magic.js";
import { defineSpec } from "./spec.js";
/**
 * One merge of a batch of successful feedbacks into MAGIC's guideline (Figure 9), as a graph so that each merge is a
 * checkpointed thread: `sqlmend magic guideline` runs one thread per batch, and a resumed run finds finished merges
 * in their checkpoints instead of merging again.
 */
export const magicGuidelineSpec = defineSpec(magicGuidelineManifest, {
    state: MagicGuidelineState,
    factories: { merge: mergeNode },
    outcome: { of: (state) => ({ merged: state.merged === true, unusableReplies: typeof state.unusableReplies === "number" ? state.unusableReplies : 0, strippedLines: typeof state.strippedLines === "number" ? state.strippedLines : 0 }) },
    steps: () => 1,
    build(_deps, options, node) {
        const graph = new StateGraph(MagicGuidelineState, { input: MagicGuidelineInput })
            .addNode("merge", node("merge"))
            .addEdge(START, "merge")
            .addEdge("merge", END)
            .compile({ checkpointer: options.checkpointer });
        return graph;
    },
});
