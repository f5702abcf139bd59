import { createHash } from "node:crypto";
import { Client } from "@langchain/langgraph-sdk";
import { firstLineOf, UserError } from "../../core/errors.ts";
import type { RunnableGraph } from "./question-thread.ts";

/**
 * A graph served by a LangGraph server (`eval --server URL`), seen by the runner as an in-process graph: a question's
 * thread lives on the server (its id derived from the run's thread id, so `--resume` finds it again), a run waits for
 * the final state, and scoring stays local, exactly as in process. The graph's options and the model settings travel
 * in the run's `configurable.sqlmend` (graphs/served.ts builds the graph from them).
 */

/** The server wants UUIDs for thread ids: a name-based one (RFC 4122 v5 layout) of the run's thread id. */
export function serverThreadId(thread: string): string {
  const bytes = createHash("sha1").update(`sqlmend:${thread}`).digest().subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

type Config = { configurable?: { thread_id?: string }; recursionLimit?: number };

export function remoteGraph(url: string, graph: string, settings: Record<string, unknown>): RunnableGraph & { check(): Promise<void> } {
  const client = new Client({ apiUrl: url });
  const threadOf = (config: Config) => {
    const thread = config.configurable?.thread_id;
    if (!thread) throw new Error("a remote run needs a thread id");
    return { thread, id: serverThreadId(thread) };
  };
  const unreachable = (error: unknown) => new UserError(`LangGraph server at ${url}: ${firstLineOf(error)} (is it running? 'npx @langchain/langgraph-cli dev' serves sqlmend's langgraph.json)`);
  return {
    /** The server answers and serves this graph: one line before any question runs, if not. */
    async check() {
      let graphs: string[];
      try {
        graphs = (await client.assistants.search({ limit: 100 })).map((a) => a.graph_id);
      } catch (error) {
        throw unreachable(error);
      }
      if (!graphs.includes(graph)) throw new UserError(`LangGraph server at ${url} does not serve graph '${graph}' (it serves: ${[...new Set(graphs)].join(", ") || "none"})`);
    },
    async getState(config: Record<string, unknown>) {
      const { id } = threadOf(config as Config);
      try {
        const state = await client.threads.getState(id);
        return { values: state.values, next: state.next, tasks: state.tasks };
      } catch (error) {
        if ((error as { status?: number }).status === 404) return { values: {}, next: [], tasks: [] };
        throw error;
      }
    },
    async invoke(input: unknown, config: Record<string, unknown>) {
      const { thread, id } = threadOf(config as Config);
      await client.threads.create({ threadId: id, ifExists: "do_nothing", graphId: graph, metadata: { sqlmend_thread: thread } });
      const recursionLimit = (config as Config).recursionLimit;
      return client.runs.wait(id, graph, {
        input: (input ?? null) as Record<string, unknown> | null,
        config: { configurable: { sqlmend: settings }, ...(recursionLimit ? { recursion_limit: recursionLimit } : {}) },
        raiseError: true,
      });
    },
  };
}
