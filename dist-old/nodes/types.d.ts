import type { SqlExecutor } from "../tools/sqlite/types.ts";
import type { ModelProvider } from "../tools/models/models.ts";
import type { ExampleStore } from "../tools/retrieval/examples.ts";
import type { Embedder } from "../tools/models/embeddings.ts";
import type { SqlStateUpdate, SqlStateValue } from "../state/sql-state.ts";
import type { Command } from "@langchain/langgraph";
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
    /** A method's own knobs, declared by its graph or the slot that reads it and read with `readOptions`. */
    [option: string]: unknown;
}
/**
 * A node: reads its graph's state (or, in a `Send` fan-out, the branch's payload) and returns a partial update, or a
 * LangGraph `Command` where its slot routes itself. Contract for every node that calls a model: it returns `calls`
 * (the records of its calls) and `usage` (their sum), and it never throws for a bad reply: it keeps the previous SQL
 * and says why in `attempts`.
 */
export type SqlNode<State = SqlStateValue, Update = SqlStateUpdate | Command> = (state: State) => Promise<Update>;
/**
 * Builds a slot's node from the run's dependencies and options: what `--node SLOT=module.ts` must default-export.
 * Typed over the state (or payload) of the slot it fills and what it returns, e.g. a TS-SQL vote:
 *   `const vote: NodeFactory<TsSqlStateValue, TsSqlStateUpdate | Command> = (deps, options) => async (state) => ...`
 * The default is the shared state (`SqlStateValue`), which every graph's state extends.
 */
export type NodeFactory<State = SqlStateValue, Update = SqlStateUpdate | Command> = (deps: NodeDeps, options: GraphOptions) => SqlNode<State, Update>;
/**
 * A factory for any slot of any graph, whatever state or payload its node reads: what a graph's slot table holds.
 * (A node's input is contravariant: a node over TS-SQL's state is one of these, but not a `NodeFactory` over the
 * shared state.)
 */
export type AnyNodeFactory = (deps: NodeDeps, options: GraphOptions) => (input: never, config?: any) => Promise<unknown>;
