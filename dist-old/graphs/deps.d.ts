import type { NodeDeps } from "../nodes/types.ts";
import { type ModelFlags } from "../tools/models/models.ts";
/**
 * Dependencies from the environment (SQLMEND_MODEL, OPENAI_BASE_URL, ...) and, over it, model settings a run passes
 * (`eval --server` sends the launcher's model flags in the run's config): for langgraph.json and library use.
 */
export declare function defaultDeps(env?: NodeJS.ProcessEnv, flags?: ModelFlags): NodeDeps;
