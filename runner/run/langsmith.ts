/**
 * LangSmith: LangChain traces every graph run when `LANGSMITH_TRACING=true` (with `LANGSMITH_API_KEY`, and
 * `LANGSMITH_ENDPOINT` for a self-hosted one); each question's run carries sqlmend's metadata (runner/run/question-thread.ts
 * `traceOf`), and after scoring eval attaches the verdict to it as feedback `execution_accuracy` (1 or 0).
 */

export function tracingEnabled(env: NodeJS.ProcessEnv): boolean {
  return [env.LANGSMITH_TRACING, env.LANGCHAIN_TRACING_V2, env.LANGSMITH_TRACING_V2].some((v) => v === "true");
}

const endpointOf = (env: NodeJS.ProcessEnv) => (env.LANGSMITH_ENDPOINT ?? env.LANGCHAIN_ENDPOINT ?? "https://api.smith.langchain.com").replace(/\/+$/, "");

/** Posts the verdict as feedback on the question's root run: "sent", or why not (never throws; the record keeps it). */
export async function sendVerdictFeedback(
  env: NodeJS.ProcessEnv,
  runId: string,
  verdict: { correct: boolean; comment?: string },
): Promise<string> {
  try {
    const response = await fetch(`${endpointOf(env)}/feedback`, {
      method: "POST",
      headers: { "content-type": "application/json", ...((env.LANGSMITH_API_KEY ?? env.LANGCHAIN_API_KEY) ? { "x-api-key": (env.LANGSMITH_API_KEY ?? env.LANGCHAIN_API_KEY)! } : {}) },
      body: JSON.stringify({ run_id: runId, key: "execution_accuracy", score: verdict.correct ? 1 : 0, ...(verdict.comment ? { comment: verdict.comment } : {}) }),
      signal: AbortSignal.timeout(10_000),
    });
    return response.ok ? "sent" : `failed: HTTP ${response.status}`;
  } catch (error) {
    return `failed: ${error instanceof Error ? error.message : String(error)}`;
  }
}
