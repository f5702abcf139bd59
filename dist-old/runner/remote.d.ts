import type { RunnableGraph } from "./question.ts";
/**
 * A graph served by a LangGraph server (`eval --server URL`), seen by the runner as an in-process graph: a question's
 * thread lives on the server (its id derived from the run's thread id, so `--resume` finds it again), a run waits for
 * the final state, and scoring stays local, exactly as in process. The graph's options and the model settings travel
 * in the run's `configurable.sqlmend` (graphs/served.ts builds the graph from them).
 */
/** The server wants UUIDs for thread ids: a name-based one (RFC 4122 v5 layout) of the run's thread id. */
export declare function serverThreadId(thread: string): string;
export declare function remoteGraph(url: string, graph: string, settings: Record<string, unknown>): RunnableGraph & {
    check(): Promise<void>;
};
