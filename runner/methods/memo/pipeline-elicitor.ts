// memo build's pipeline elicitation (`--elicit pipeline`): memo-sql's candidates as the source of wrong queries.
import { inputOf } from "../../run/question-thread.ts";
import { createExampleStore } from "../../../tools/retrieval/examples.ts";
import type { ModelProvider } from "../../../tools/models/models.ts";
import type { SqlExecutor } from "../../../tools/sqlite/types.ts";
import type { Question } from "../../../state/question.ts";
import type { Usage } from "../../../state/usage.ts";
import type { Embedder } from "../../../tools/models/embeddings.ts";

/**
 * memo-sql's candidates as the source of wrong queries: the whole generation half (decompositions, ReAct+Reflect,
 * three styles, exemplars from the same split — never the question itself), without correction or memory.
 */
export async function pipelineElicitor(models: ModelProvider, executor: SqlExecutor, questions: Question[], embeddings: Embedder | undefined) {
  const { memoSqlSpec } = await import("../../../graphs/memo-sql.ts");
  const graph = memoSqlSpec.build({ models, executor, examples: createExampleStore(questions), ...(embeddings ? { embeddings } : {}) }, { noRefine: true, retrieval: "none" });
  return async (q: Question) => {
    const state = (await graph.invoke(inputOf(q, "memo-sql"), { recursionLimit: graph.recursionLimit })) as { candidates: { sql: string }[]; usage: Usage };
    return { sqls: state.candidates.map((c) => c.sql), usage: state.usage };
  };
}
