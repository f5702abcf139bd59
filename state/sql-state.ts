import { ReducedValue, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { LinkingSchema } from "./linking.ts";
import { ResultPreviewSchema } from "./result.ts";
import { addUsage, emptyUsage, type ModelCallRecord, ModelCallRecordSchema, UsageSchema } from "./usage.ts";

/** What running one SQL string gave: a capped JSON-safe preview and a fingerprint of the full result, or the error. */
export const ExecutionSchema = z.object({
  sql: z.string(),
  ok: z.boolean(),
  preview: ResultPreviewSchema.optional(),
  /** Equal iff two full results are equal under BIRD's set semantics (for voting and consensus). */
  fingerprint: z.string().optional(),
  /** What the worker's byte budget cut from the rows kept for the preview (tools/sqlite/keep.js); absent when nothing. */
  cut: z.string().optional(),
  /** rejected | timeout | sql | database | internal */
  errorKind: z.string().optional(),
  error: z.string().optional(),
  elapsedMs: z.number().nonnegative(),
});
export type Execution = z.infer<typeof ExecutionSchema>;

/** One entry of the attempt history: which node produced or judged which SQL, and why. */
export const AttemptSchema = z.object({
  node: z.string(),
  sql: z.string(),
  /** Did the SQL execute (after an execute node), or did the node get a usable reply (after a model node)? */
  ok: z.boolean(),
  /** One line: the error, or why a node kept the previous SQL. */
  note: z.string().optional(),
});
export type Attempt = z.infer<typeof AttemptSchema>;

/** A candidate SQL among several (Memo-SQL's nine, TS-SQL's revisions, ...), merged by id. */
export const CandidateSchema = z.object({
  id: z.string(),
  sql: z.string(),
  /** The node or strategy that wrote it (e.g. "generate", "memo:cte"). */
  source: z.string(),
  execution: ExecutionSchema.optional(),
  meta: z.record(z.string(), z.unknown()).optional(),
});
export type Candidate = z.infer<typeof CandidateSchema>;

const concat = <T>(current: T[], next: T[]) => current.concat(next);

/** Later writes for an id replace earlier ones; order of first appearance is kept. */
export function mergeCandidates(current: Candidate[], next: Candidate[]): Candidate[] {
  const out = [...current];
  for (const candidate of next) {
    const at = out.findIndex((c) => c.id === candidate.id);
    if (at >= 0) out[at] = candidate;
    else out.push(candidate);
  }
  return out;
}

/**
 * The `calls` reducer: the calls of the latest step. Parallel nodes of one step (a `Send` fan-out) each write their
 * calls; those of one step are kept together, and a later step replaces them, so checkpoints stay small.
 */
export function callsOfLatestStep(current: ModelCallRecord[], next: ModelCallRecord[]): ModelCallRecord[] {
  const step = next[0]?.step;
  if (step !== undefined && current.length > 0 && current.every((call) => call.step === step)) return current.concat(next);
  return next;
}

/**
 * The fields every graph shares. A method's graph spreads these into its own StateSchema and adds its fields:
 *   new StateSchema({ ...sqlStateFields, reviews: ... })
 */
export const sqlStateFields = {
  /** The graph running this thread (set by the launcher; `sqlmend inspect` rebuilds it from this name). */
  graph: z.string().default(""),
  questionId: z.string().default(""),
  question: z.string(),
  evidence: z.string().default(""),
  dbId: z.string().default(""),
  /** The .sqlite file; read-only, never written. */
  dbPath: z.string(),
  /** BIRD's database_description/ folder, when there is one. */
  descriptionDir: z.string().default(""),
  /** What schema and value linking found (slot `link`), or null when the graph does not link. */
  linking: LinkingSchema.nullable().default(null),
  /** The schema as shown to models (CREATE TABLE text). Filled by the schema node when empty. */
  schemaText: z.string().default(""),
  /** The current SQL: the answer so far. Correction graphs receive the initial SQL here. */
  sql: z.string().default(""),
  /** The last execution of `sql`. */
  execution: ExecutionSchema.nullable().default(null),
  /** Execution-error fix rounds used so far (the debug loop's counter). */
  fixRounds: z.number().int().nonnegative().default(0),
  attempts: new ReducedValue(z.array(AttemptSchema).default(() => []), { inputSchema: z.array(AttemptSchema), reducer: concat }),
  candidates: new ReducedValue(z.array(CandidateSchema).default(() => []), {
    inputSchema: z.array(CandidateSchema),
    reducer: mergeCandidates,
  }),
  /**
   * The model calls of the latest step that made any: all of them when nodes ran in parallel in that step. Each
   * step's calls stay in the checkpoint history (`sqlmend inspect --step N`); keeping only the latest here keeps
   * checkpoints from growing quadratically.
   */
  calls: new ReducedValue(z.array(ModelCallRecordSchema).default(() => []), {
    inputSchema: z.array(ModelCallRecordSchema),
    reducer: callsOfLatestStep,
  }),
  /** Tokens, calls and latency summed over the whole run, per role. */
  usage: new ReducedValue(UsageSchema.default(emptyUsage), { inputSchema: UsageSchema, reducer: addUsage }),
};

export const SqlState = new StateSchema(sqlStateFields);

/**
 * What a graph is started with, as a state schema (Studio's and the LangGraph API's input form): the question, its
 * database and evidence, and the SQL to correct (correctors). Everything else is the graph's own work.
 */
export const sqlInputFields = {
  graph: sqlStateFields.graph,
  questionId: sqlStateFields.questionId,
  question: sqlStateFields.question,
  evidence: sqlStateFields.evidence,
  dbId: sqlStateFields.dbId,
  dbPath: sqlStateFields.dbPath,
  descriptionDir: sqlStateFields.descriptionDir,
  sql: sqlStateFields.sql,
};
export const SqlInputState = new StateSchema(sqlInputFields);
export type SqlStateValue = typeof SqlState.State;
export type SqlStateUpdate = typeof SqlState.Update;

/** What a graph is started with: a question and its database (and, for a corrector, the SQL to correct). */
export const SqlInputSchema = z.object({
  graph: z.string().optional(),
  questionId: z.string().optional(),
  question: z.string(),
  evidence: z.string().optional(),
  dbId: z.string().optional(),
  dbPath: z.string(),
  descriptionDir: z.string().optional(),
  sql: z.string().optional(),
});
export type SqlInput = z.infer<typeof SqlInputSchema>;
