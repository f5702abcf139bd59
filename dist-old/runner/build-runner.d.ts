import type { BaseCheckpointSaver } from "@langchain/langgraph";
import type { GraphInfo, GraphManifest } from "../graphs/spec.ts";
import type { NodeDeps } from "../nodes/types.ts";
import { type ExampleStore } from "../tools/retrieval/examples.ts";
import type { Benchmark } from "../state/question.ts";
import { type Semantics } from "../tools/benchmarks/score.ts";
import type { SqlExecutor } from "../tools/sqlite/types.ts";
import type { GraphRunner, InitialSource } from "./question.ts";
import { graphOptionsFrom, type RunModules, type runFlags } from "./run-options.ts";
type Values = Parameters<typeof graphOptionsFrom>[0] & {
    [K in keyof typeof runFlags]?: unknown;
};
/**
 * The training examples a run retrieves from (`--few-shot`, or a graph option such as R³'s `--k-shot`), or undefined
 * when none is wanted: the benchmark's train split, loaded once (the split itself when the run is on train).
 */
export declare function examplesFor(spec: GraphInfo, values: Record<string, unknown>, benchDir: string | undefined, split: string, bench: Benchmark): Promise<ExampleStore | undefined>;
/**
 * The example pool of a train split: its questions whose database is on disk (the reader skips the others; each
 * question's state says how many were left out). An empty pool is an error, never a silent zero-shot run.
 */
export declare function examplePoolOf(train: Benchmark, wantedBy: string): ExampleStore;
/** Everything a command needs to run questions through a graph, from its flags. */
export declare function buildRunner(args: {
    spec: GraphManifest;
    values: Values;
    env: NodeJS.ProcessEnv;
    cwd: string;
    executor: SqlExecutor;
    checkpointer: BaseCheckpointSaver;
    semantics: Semantics;
    examples?: ExampleStore;
    allowOracle: boolean;
    /**
     * The benchmark whose questions a predictions file for --initial answers: its every question, skipped ones included,
     * in file order (a text-format file has a line for each, paired by position).
     */
    benchQuestions?: Benchmark;
    /** ask: initial SQL given inline with --sql. */
    inlineInitialSql?: string;
    /** A corrector run on SQL the command gives it (the TS-SQL audit gives the gold): no --initial source is built. */
    noInitial?: boolean;
    /** Option values the command fixes, over the flags' (the audit: no revision). */
    fixedOptions?: Record<string, unknown>;
    /** The role whose model must be configured (checked before anything runs). */
    roleToCheck?: string;
    /** eval --server: the graphs run on this LangGraph server, scoring stays here. */
    server?: string;
    /** Where warnings go (a damaged response cache set aside); default stderr. */
    warn?: (line: string) => void;
    /** The `--node` modules the command already loaded (to read their options): not imported again. */
    modules?: RunModules;
}): Promise<GraphRunner>;
/**
 * `--initial GRAPH|FILE`: a generator graph (built with its own declared options; `alsoAllowed` are the graphs whose
 * flags may appear beside them), or a predictions file in either official format. Default: baseline.
 */
export declare function resolveInitialSource(initial: string | undefined, ctx: {
    cwd: string;
    values: Record<string, unknown>;
    checkpointer: BaseCheckpointSaver;
    alsoAllowed: GraphInfo[];
    /** Every question of the split, skipped ones included: the lines a text-format predictions file must have. */
    benchQuestions?: Benchmark;
}, deps: NodeDeps, options: ReturnType<typeof graphOptionsFrom>): Promise<InitialSource>;
/**
 * `--initial FILE` holds SQL, but often raw model text: fences, prose, `<think>` around the query. Plain SQL is taken
 * as written; anything else goes through the reply parser the graphs use (`extractSql`): "extracted", or "none" when
 * it holds no SQL (then the initial SQL is empty). Counted per question in the record and the report.
 */
export declare function initialSqlOf(text: string): {
    sql: string;
    how: "as written" | "extracted" | "none";
};
/**
 * The runner `sqlmend replay` continues a recorded run's threads with: the run's graph built with the options its
 * run.json recorded (flag names → values as eval parsed them), the node swaps `nodes` (the run's, with the replay's over them per slot), and the
 * models of this command's flags. A file option whose file changed since the run is refused: the suffix would not
 * run under what the prefix ran under.
 */
export declare function replayRunner(args: {
    original: {
        dir: string;
        graph: string;
        settings: Record<string, unknown>;
        semantics: Semantics;
        split: string;
    };
    /** Every node swap the suffix runs with, `SLOT=FILE`. */
    nodes: string[];
    /** A graph module (`--graph FILE`) for a run of a user's graph, over the one run.json recorded. */
    graph?: string;
    /** This command's model flags. */
    values: Values;
    env: NodeJS.ProcessEnv;
    cwd: string;
    executor: SqlExecutor;
    checkpointer: BaseCheckpointSaver;
    bench: Benchmark;
    benchDir: string | undefined;
    warn: (line: string) => void;
}): Promise<GraphRunner>;
export {};
