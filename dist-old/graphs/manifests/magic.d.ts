export declare const magicManifest: {
    readonly name: "magic";
    readonly summary: "corrector: revise the given SQL by walking a MAGIC self-correction guideline (--guideline FILE)";
    readonly kind: "corrector";
    readonly stateType: {
        readonly value: "MagicValue";
        readonly update: "MagicUpdate";
    };
    readonly slots: {
        readonly schema: {
            readonly summary: "describe the database for prompts (a given schemaText is left alone)";
            readonly reads: readonly ["dbPath", "descriptionDir", "question", "evidence", "schemaText", "linking"];
            readonly writes: readonly ["schemaText"];
        };
        readonly correct: {
            readonly summary: "ask the guideline's questions of the SQL, then revise it";
            readonly role: "corrector";
            readonly reads: readonly ["sql", "schemaText", "question", "evidence"];
            readonly writes: readonly ["sql", "initialSql", "guidelineHash", "revision"];
            readonly requires: readonly ["initialSql"];
            readonly options: {
                readonly guideline: {
                    readonly type: "string";
                    readonly metavar: "FILE";
                    readonly required: true;
                    readonly file: true;
                    readonly help: "the self-correction guideline (Markdown), e.g. from 'sqlmend magic guideline'";
                };
                readonly correctorEvidence: {
                    readonly type: "choice";
                    readonly choices: readonly ["shown", "hidden"];
                    readonly default: "shown";
                    readonly help: "whether the correction agent is shown the question's evidence (Figure 6 does not list it)";
                };
            };
        };
        readonly check: {
            readonly summary: "execute the revision; keep the initial SQL when it does not execute";
            readonly reads: readonly ["dbPath", "sql", "initialSql", "revision"];
            readonly writes: readonly ["execution", "revision", "sql"];
        };
    };
    readonly calls: () => {
        min: number;
        max: number;
        typical: number;
    };
};
export declare const magicFeedbackManifest: {
    readonly name: "magic-feedback";
    readonly summary: "MAGIC training cycle on one failure: feedback agent, correction agent, manager (needs gold SQL; run by 'sqlmend magic guideline')";
    readonly kind: "corrector";
    readonly runBy: "sqlmend magic guideline";
    readonly options: {
        readonly maxIter: {
            readonly type: "int";
            readonly default: 5;
            readonly min: 1;
            readonly max: 100;
            readonly help: "feedback-correction iterations per failure, at most (the paper: 5)";
        };
        readonly noManager: {
            readonly type: "boolean";
            readonly default: false;
            readonly help: "ablation (Table 4): fixed prompts, the feedback agent decides when to stop";
        };
        readonly maxLeakRetries: {
            readonly type: "int";
            readonly default: 2;
            readonly min: 0;
            readonly max: 10;
            readonly help: "re-asks when a feedback or revised prompt gives the gold away";
        };
        readonly maxUnusableRetries: {
            readonly type: "int";
            readonly default: 1;
            readonly min: 0;
            readonly max: 10;
            readonly help: "re-asks when the manager's revised prompt or merged guideline is unusable";
        };
        readonly correctorEvidence: {
            readonly type: "choice";
            readonly choices: readonly ["shown", "hidden"];
            readonly default: "shown";
            readonly help: "whether the correction agent is shown the question's evidence (Figure 6 does not list it)";
        };
    };
    readonly stateType: {
        readonly value: "MagicFeedbackValue";
        readonly update: "MagicFeedbackUpdate";
    };
    readonly slots: {
        readonly schema: {
            readonly summary: "describe the database for prompts (a given schemaText is left alone)";
            readonly reads: readonly ["dbPath", "descriptionDir", "question", "evidence", "schemaText", "linking"];
            readonly writes: readonly ["schemaText"];
        };
        readonly feedback: {
            readonly summary: "explain the incorrect SQL's mistakes against the gold, without writing SQL (the gold redacted after bounded re-asks)";
            readonly role: "feedback";
            readonly reads: readonly ["question", "evidence", "goldSql", "incorrectSql", "iterations", "feedbackInstructions", "sql"];
            readonly writes: readonly ["latestFeedback", "unreachable", "leakRefusals", "redactions"];
        };
        readonly correct: {
            readonly summary: "revise the incorrect SQL from the feedback, never seeing the gold";
            readonly role: "corrector";
            readonly reads: readonly ["schemaText", "question", "evidence", "incorrectSql", "latestFeedback", "correctionInstructions", "sql"];
            readonly writes: readonly ["sql", "correctionReply", "unreachable"];
        };
        readonly manager: {
            readonly summary: "execute the revision and judge it against the gold with the scorer";
            readonly reads: readonly ["questionId", "dbId", "dbPath", "question", "evidence", "goldSql", "sql", "rounds", "latestFeedback"];
            readonly writes: readonly ["rounds", "corrected", "iterations"];
            readonly requires: readonly ["rounds", "corrected"];
        };
        readonly reviseFeedback: {
            readonly summary: "rewrite the feedback agent's instructions from its last output";
            readonly role: "manager";
            readonly reads: readonly ["question", "evidence", "goldSql", "incorrectSql", "latestFeedback", "feedbackInstructions", "feedbackRevisions", "sql"];
            readonly writes: readonly ["feedbackInstructions", "feedbackRevisions", "unusableManagerReplies", "failedRevisions"];
        };
        readonly reviseCorrection: {
            readonly summary: "rewrite the correction agent's instructions, never giving the gold away";
            readonly role: "manager";
            readonly reads: readonly ["question", "evidence", "dbPath", "goldSql", "incorrectSql", "latestFeedback", "correctionReply", "correctionInstructions", "correctionRevisions", "sql"];
            readonly writes: readonly ["correctionInstructions", "correctionRevisions", "leakRefusals", "unusableManagerReplies", "failedRevisions"];
        };
        readonly check: {
            readonly summary: "no-manager ablation: execute and score the revision for the record";
            readonly reads: readonly ["questionId", "dbId", "dbPath", "question", "evidence", "goldSql", "sql", "rounds", "latestFeedback"];
            readonly writes: readonly ["rounds", "corrected", "iterations", "execution", "judgedCorrect"];
            readonly requires: readonly ["rounds"];
        };
        readonly judge: {
            readonly summary: "no-manager ablation: the feedback agent judges the revision from both results";
            readonly role: "feedback";
            readonly reads: readonly ["question", "evidence", "dbPath", "goldSql", "sql", "execution"];
            readonly writes: readonly ["judgedCorrect"];
            readonly requires: readonly ["judgedCorrect"];
        };
    };
    readonly calls: (options: Record<string, unknown>) => {
        min: number;
        max: number;
    };
};
export declare const magicGuidelineManifest: {
    readonly name: "magic-guideline";
    readonly summary: "MAGIC: the manager merges a batch of successful feedbacks into the guideline (run by 'sqlmend magic guideline')";
    readonly kind: "generator";
    readonly runBy: "sqlmend magic guideline";
    readonly stateType: {
        readonly value: "MagicGuidelineValue";
        readonly update: "MagicGuidelineUpdate";
    };
    readonly slots: {
        readonly merge: {
            readonly summary: "merge the batch into the guideline so far";
            readonly role: "manager";
            readonly reads: readonly ["guideline", "batch"];
            readonly writes: readonly ["guideline", "merged", "unusableReplies", "strippedLines"];
            readonly requires: readonly ["guideline"];
        };
    };
    readonly calls: (options: Record<string, unknown>) => {
        min: number;
        max: number;
        typical: number;
        note: string;
    };
};
