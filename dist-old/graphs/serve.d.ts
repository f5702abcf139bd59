import type { ModelFlags } from "../tools/models/models.ts";
/**
 * How a LangGraph server gets a registered graph: `servedGraph(name)` is the factory the server calls when it needs
 * the graph. Nothing is built (nor LangGraph loaded) until then; it loads the spec through the registry and builds it
 * with dependencies from the environment (`graphs/deps.ts`). `graphs/served.ts` holds one such export per registered
 * graph and langgraph.json names them: both are written from the registry by `npm run served`.
 */
type ServedConfig = {
    configurable?: Record<string, unknown>;
};
/**
 * What a run may set in `configurable.sqlmend` (`eval --server` sends it): the graph's options as the launcher parsed
 * them (camelCase keys, shared knobs included), the model settings (never a key: the server's environment holds it),
 * and the launcher's working directory for relative file options.
 */
export interface ServedSettings {
    options?: Record<string, unknown>;
    models?: ModelFlags;
    cwd?: string;
}
/** The server's factory for a registered graph (an unknown name fails when served.ts is imported). */
export declare const servedGraph: (name: string) => (config?: ServedConfig) => Promise<any>;
export {};
