import { END, START, StateGraph } from "@langchain/langgraph";
import { MagicFeedbackState, MagicFeedbackInput } from "../state/magic.js";
import { checkNode, correctNode, feedbackNode, judgeNode, managerJudgeNode, reviseCorrectionNode, reviseFeedbackNode } from "../nodes/magic/cycle.js";
import { MAGIC_FEEDBACK_OPTIONS } from "../nodes/magic/options.js";
import { magicFeedbackManifest } from "./manifests/magic.js";
import { readOptions } from "../core/options.js";
import { SHARED_FACTORIES } from "./slots.js";
import { defineSpec } from "./spec.js";
/** An agent whose call got no reply at all ends the cycle: without the model, more iterations only wait on it. */
export const unlessUnreachable = (next) => (state) => (state.unreachable ? END : next);
/** After the manager's verdict: stop on success or after maxIter iterations (exactly maxIter), else revise the prompts. */
export const routeAfterManager = (maxIter) => (state) => state.corrected || state.rounds >= maxIter ? END : ["reviseFeedback", "reviseCorrection"];
/** No-manager ablation: the scorer's verdict routes nothing; stop at maxIter, else let the feedback agent judge. */
export const routeAfterCheck = (maxIter) => (state) => (state.rounds >= maxIter ? END : "judge");
export const routeAfterJudge = (state) => (state.judgedCorrect ? END : "feedback");
/**
 * MAGIC's feedback-correction cycle on one training failure (Figure 2): feedback → correct → manager judges with
 * the gold; on failure the manager revises both agents' instructions (in parallel) and the cycle repeats, at most
 * maxIter times. With noManager (Table 4's ablation): fixed instructions, feedback → correct → check → the feedback
 * agent judges the revision and decides whether to go on.
 */
export const magicFeedbackSpec = defineSpec(magicFeedbackManifest, {
    state: MagicFeedbackState,
    factories: {
        schema: SHARED_FACTORIES.schema,
        feedback: feedbackNode,
        correct: correctNode,
        manager: managerJudgeNode,
        reviseFeedback: reviseFeedbackNode,
        reviseCorrection: reviseCorrectionNode,
        check: checkNode,
        judge: judgeNode,
    },
    // The cycle's record for results.jsonl (`sqlmend magic guideline` writes it; `inspect` shows it).
    outcome: {
        of: (state) => {
            const n = (key) => (typeof state[key] === "number" ? state[key] : 0);
            return {
                iterations: n("rounds"),
                success: state.corrected === true,
                leakRefusals: n("leakRefusals"),
                redactions: n("redactions"),
                feedbackRevisions: n("feedbackRevisions"),
                correctionRevisions: n("correctionRevisions"),
                unusableManagerReplies: n("unusableManagerReplies"),
                failedRevisions: n("failedRevisions"),
            };
        },
    },
    // schema, then per iteration feedback → correct → manager → the two revisions (one step); or check → judge.
    steps: (options) => 1 + 4 * readOptions(MAGIC_FEEDBACK_OPTIONS, options).maxIter,
    build(_deps, options, node) {
        const { maxIter, noManager } = readOptions(MAGIC_FEEDBACK_OPTIONS, options);
        // Both paths are in every build (the option picks one after `correct`), so a graph built with the defaults —
        // `sqlmend inspect`, Studio — still reads the steps of a thread that ran without the manager.
        const afterCorrect = (state) => (state.unreachable ? END : noManager ? "check" : "manager");
        const graph = new StateGraph(MagicFeedbackState, { input: MagicFeedbackInput })
            .addNode("schema", node("schema"))
            .addNode("feedback", node("feedback"))
            .addNode("correct", node("correct"))
            .addNode("manager", node("manager"))
            .addNode("reviseFeedback", node("reviseFeedback"))
            .addNode("reviseCorrection", node("reviseCorrection"))
            .addNode("check", node("check"))
            .addNode("judge", node("judge"))
            .addEdge(START, "schema")
            .addEdge("schema", "feedback")
            .addConditionalEdges("feedback", unlessUnreachable("correct"), ["correct", END])
            .addConditionalEdges("correct", afterCorrect, ["manager", "check", END])
            .addConditionalEdges("manager", routeAfterManager(maxIter), ["reviseFeedback", "reviseCorrection", END])
            .addEdge(["reviseFeedback", "reviseCorrection"], "feedback")
            .addConditionalEdges("check", routeAfterCheck(maxIter), ["judge", END])
            .addConditionalEdges("judge", routeAfterJudge, ["feedback", END])
            .compile({ checkpointer: options.checkpointer });
        return graph;
    },
});
