import { MAGIC_FEEDBACK_OPTIONS, MAGIC_OPTIONS } from "../../nodes/magic/options.js";
import { defineManifest } from "./manifest.js";
import { readOptions } from "../../core/options.js";
import { SHARED_SLOT_INFO as SHARED, STRUCTURED_CALLS } from "./shared.js";
export const magicManifest = defineManifest({
    name: "magic",
    summary: "corrector: revise the given SQL by walking a MAGIC self-correction guideline (--guideline FILE)",
    kind: "corrector",
    stateType: { value: "MagicValue", update: "MagicUpdate" },
    slots: {
        schema: SHARED.schema,
        correct: {
            summary: "ask the guideline's questions of the SQL, then revise it",
            role: "corrector",
            reads: ["sql", "schemaText", "question", "evidence"],
            writes: ["sql", "initialSql", "guidelineHash", "revision"],
            requires: ["initialSql"],
            // The guideline is this node's alone: a run that replaces it takes no --guideline and records none.
            options: MAGIC_OPTIONS,
        },
        check: {
            summary: "execute the revision; keep the initial SQL when it does not execute",
            reads: ["dbPath", "sql", "initialSql", "revision"],
            writes: ["execution", "revision", "sql"],
        },
    },
    // correct: one call (a reply without SQL is not asked again); check calls nothing.
    calls: () => ({ min: 1, max: 1, typical: 1 }),
});
export const magicFeedbackManifest = defineManifest({
    name: "magic-feedback",
    summary: "MAGIC training cycle on one failure: feedback agent, correction agent, manager (needs gold SQL; run by 'sqlmend magic guideline')",
    kind: "corrector",
    // It needs the gold SQL, which eval and ask never hand a graph.
    runBy: "sqlmend magic guideline",
    options: MAGIC_FEEDBACK_OPTIONS,
    stateType: { value: "MagicFeedbackValue", update: "MagicFeedbackUpdate" },
    slots: {
        schema: SHARED.schema,
        feedback: {
            summary: "explain the incorrect SQL's mistakes against the gold, without writing SQL (the gold redacted after bounded re-asks)",
            role: "feedback",
            reads: ["question", "evidence", "goldSql", "incorrectSql", "iterations", "feedbackInstructions", "sql"],
            writes: ["latestFeedback", "unreachable", "leakRefusals", "redactions"],
        },
        correct: {
            summary: "revise the incorrect SQL from the feedback, never seeing the gold",
            role: "corrector",
            reads: ["schemaText", "question", "evidence", "incorrectSql", "latestFeedback", "correctionInstructions", "sql"],
            writes: ["sql", "correctionReply", "unreachable"],
        },
        manager: {
            summary: "execute the revision and judge it against the gold with the scorer",
            reads: ["questionId", "dbId", "dbPath", "question", "evidence", "goldSql", "sql", "rounds", "latestFeedback"],
            writes: ["rounds", "corrected", "iterations"],
            requires: ["rounds", "corrected"],
        },
        reviseFeedback: {
            summary: "rewrite the feedback agent's instructions from its last output",
            role: "manager",
            reads: ["question", "evidence", "goldSql", "incorrectSql", "latestFeedback", "feedbackInstructions", "feedbackRevisions", "sql"],
            writes: ["feedbackInstructions", "feedbackRevisions", "unusableManagerReplies", "failedRevisions"],
        },
        reviseCorrection: {
            summary: "rewrite the correction agent's instructions, never giving the gold away",
            role: "manager",
            reads: ["question", "evidence", "dbPath", "goldSql", "incorrectSql", "latestFeedback", "correctionReply", "correctionInstructions", "correctionRevisions", "sql"],
            writes: ["correctionInstructions", "correctionRevisions", "leakRefusals", "unusableManagerReplies", "failedRevisions"],
        },
        check: {
            summary: "no-manager ablation: execute and score the revision for the record",
            reads: ["questionId", "dbId", "dbPath", "question", "evidence", "goldSql", "sql", "rounds", "latestFeedback"],
            writes: ["rounds", "corrected", "iterations", "execution", "judgedCorrect"],
            requires: ["rounds"],
        },
        judge: {
            summary: "no-manager ablation: the feedback agent judges the revision from both results",
            role: "feedback",
            reads: ["question", "evidence", "dbPath", "goldSql", "sql", "execution"],
            writes: ["judgedCorrect"],
            requires: ["judgedCorrect"],
        },
    },
    // Per iteration: feedback (1 + up to maxLeakRetries re-asks when it gives the gold away), correct (1), manager (no
    // call); then, unless corrected or at maxIter, both revisions in parallel: reviseFeedback (1 + up to
    // maxUnusableRetries), reviseCorrection (1 + up to maxUnusableRetries unusable + maxLeakRetries leaking replies).
    // Without the manager: check (no call), then, before maxIter, judge (one structured ask) decides whether to go on.
    calls: (options) => {
        const o = readOptions(MAGIC_FEEDBACK_OPTIONS, options);
        const iteration = 2 + o.maxLeakRetries;
        if (o.noManager)
            return { min: o.maxIter > 1 ? 2 + STRUCTURED_CALLS.min : 2, max: o.maxIter * iteration + (o.maxIter - 1) * STRUCTURED_CALLS.max };
        const revisions = 1 + o.maxUnusableRetries + (1 + o.maxUnusableRetries + o.maxLeakRetries);
        return { min: 2, max: o.maxIter * iteration + (o.maxIter - 1) * revisions };
    },
});
export const magicGuidelineManifest = defineManifest({
    name: "magic-guideline",
    summary: "MAGIC: the manager merges a batch of successful feedbacks into the guideline (run by 'sqlmend magic guideline')",
    kind: "generator",
    runBy: "sqlmend magic guideline",
    stateType: { value: "MagicGuidelineValue", update: "MagicGuidelineUpdate" },
    slots: {
        merge: {
            summary: "merge the batch into the guideline so far",
            role: "manager",
            reads: ["guideline", "batch"],
            writes: ["guideline", "merged", "unusableReplies", "strippedLines"],
            requires: ["guideline"],
        },
    },
    // A thread is one merge of a batch, not a question: the manager once, asked again up to maxUnusableRetries times
    // (magic-feedback's option, which 'sqlmend magic guideline' passes to the merge) when the guideline is unusable.
    calls: (options) => {
        const retries = readOptions(MAGIC_FEEDBACK_OPTIONS, options).maxUnusableRetries;
        return { min: 1, max: 1 + retries, typical: 1, note: "per merge of a batch of successful feedbacks (one thread per batch), not per question" };
    },
});
