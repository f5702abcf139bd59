/** sqlmend as a library: graphs, nodes, tools and state schemas. */
export { graphSpecs, findGraph } from "./graphs/index.ts";
export type { GraphSpec, BuildOptions } from "./graphs/index.ts";
export { baselineSpec } from "./graphs/baseline.ts";
export { repairSpec } from "./graphs/repair.ts";
export * from "./nodes/index.ts";
export { sqlStateFields, SqlState, SqlInputSchema, ExecutionSchema, AttemptSchema, CandidateSchema } from "./state/sql-state.ts";
export type { SqlStateValue, SqlStateUpdate, SqlInput, Execution, Attempt, Candidate } from "./state/sql-state.ts";
export { QuestionSchema } from "./state/question.ts";
export type { Question, Benchmark } from "./state/question.ts";
export { callModel, callStructured } from "./tools/llm.ts";
export { createOpenAIProvider, resolveModelConfig } from "./tools/models.ts";
export type { ModelProvider } from "./tools/models.ts";
export { extractSql, extractJson, stripThinking } from "./tools/reply.ts";
export { createExecutor, getSharedExecutor } from "./tools/sqlite/executor.ts";
export { createExampleStore } from "./tools/examples.ts";
