import type { SqlExecutor } from "../tools/sqlite/types.ts";
import type { ModelProvider } from "../tools/models/models.ts";
import type { ExampleStore } from "../tools/retrieval/examples.ts";
import type { Embedder } from "../tools/models/embeddings.ts";
import type { SqlStateUpdate, SqlStateValue } from "../state/sql-state.ts";

/** What nodes need from outside the graph. Passed to factories, never stored in state. */
export interface NodeDeps {
  models: ModelProvider;
  executor: SqlExecutor;
  /** Training questions for few-shot retrieval (and methods that learn from a training split). */
  examples?: ExampleStore;
  /** Dense embeddings, when an embedding model is configured; consumers fall back to lexical ranking without. */
  embeddings?: Embedder;
}

/** Knobs every graph accepts; each method adds its own. */
export interface GraphOptions {
  /** Execution-error fix rounds in the debug loop. Default 3. */
  maxFixRounds?: number;
  /** Few-shot examples retrieved from the training split for generation. Default 0 (zero-shot). */
  fewShot?: number;
  /** Size budget of the schema shown to models, in characters. Default 24 000. */
  schemaMaxChars?: number;
  /** Rows of a result shown to models. Default 10. */
  previewRows?: number;
  /** Per-query time limit. Default 30 000 ms. */
  timeoutMs?: number;
  /** A method's own knobs, declared in its spec (`graphs/options.ts`) and read with `readOptions`. */
  [option: string]: unknown;
}

/**
 * A node: reads the shared state, returns a partial update. Contract for every node that calls a model:
 * it returns `calls` (the records of its calls) and `usage` (their sum), and it never throws for a bad reply:
 * it keeps the previous SQL and says why in `attempts`.
 */
export type SqlNode = (state: SqlStateValue) => Promise<SqlStateUpdate>;

/** Builds a node for a slot from the run's dependencies and options: what `--node SLOT=module.ts` must default-export. */
export type NodeFactory = (deps: NodeDeps, options: GraphOptions) => SqlNode;
