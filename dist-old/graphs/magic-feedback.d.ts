import { END } from "@langchain/langgraph";
import { type MagicFeedbackValue } from "../state/magic.ts";
/** An agent whose call got no reply at all ends the cycle: without the model, more iterations only wait on it. */
export declare const unlessUnreachable: (next: string) => (state: MagicFeedbackValue) => string;
/** After the manager's verdict: stop on success or after maxIter iterations (exactly maxIter), else revise the prompts. */
export declare const routeAfterManager: (maxIter: number) => (state: MagicFeedbackValue) => string[] | typeof END;
/** No-manager ablation: the scorer's verdict routes nothing; stop at maxIter, else let the feedback agent judge. */
export declare const routeAfterCheck: (maxIter: number) => (state: MagicFeedbackValue) => "__end__" | "judge";
export declare const routeAfterJudge: (state: MagicFeedbackValue) => "feedback" | "__end__";
/**
 * MAGIC's feedback-correction cycle on one training failure (Figure 2): feedback → correct → manager judges with
 * the gold; on failure the manager revises both agents' instructions (in parallel) and the cycle repeats, at most
 * maxIter times. With noManager (Table 4's ablation): fixed instructions, feedback → correct → check → the feedback
 * agent judges the revision and decides whether to go on.
 */
export declare const magicFeedbackSpec: import("./spec.ts").GraphSpec<{
    schema: import("../index.ts").NodeFactory;
    feedback: import("../nodes/magic/cycle.ts").CycleNode;
    correct: import("../nodes/magic/cycle.ts").CycleNode;
    manager: import("../nodes/magic/cycle.ts").CycleNode;
    reviseFeedback: import("../nodes/magic/cycle.ts").CycleNode;
    reviseCorrection: import("../nodes/magic/cycle.ts").CycleNode;
    check: import("../nodes/magic/cycle.ts").CycleNode;
    judge: import("../nodes/magic/cycle.ts").CycleNode;
}>;
