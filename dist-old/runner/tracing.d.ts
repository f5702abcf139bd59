/**
 * LangSmith: LangChain traces every graph run when `LANGSMITH_TRACING=true` (with `LANGSMITH_API_KEY`, and
 * `LANGSMITH_ENDPOINT` for a self-hosted one); each question's run carries sqlmend's metadata (runner/question.ts
 * `traceOf`), and after scoring eval attaches the verdict to it as feedback `execution_accuracy` (1 or 0).
 */
export declare function tracingEnabled(env: NodeJS.ProcessEnv): boolean;
/** Posts the verdict as feedback on the question's root run: "sent", or why not (never throws; the record keeps it). */
export declare function sendVerdictFeedback(env: NodeJS.ProcessEnv, runId: string, verdict: {
    correct: boolean;
    comment?: string;
}): Promise<string>;
