import type { Embedder } from "../tools/models/embeddings.ts";
import { type ModelProvider } from "../tools/models/models.ts";
import { ResponseCache } from "../tools/models/response-cache.ts";
import { type RunValues } from "./run-options.ts";
/** The response cache `--cache` asks for (default on, in `<data dir>/responses.sqlite`), or undefined when off. */
export declare function responseCacheFrom(values: RunValues, env: NodeJS.ProcessEnv, cwd: string, warn: (line: string) => void): ResponseCache | undefined;
/** The model provider from flags, env and config file; fails fast with one line when no model is configured. */
export declare function modelsFrom(values: RunValues, env: NodeJS.ProcessEnv, cwd: string, roleToCheck?: string, warn?: (line: string) => void): ModelProvider;
/** The embedder from flags, env and config file, or undefined when no embedding model is configured. */
export declare function embeddingsFrom(values: RunValues, env: NodeJS.ProcessEnv, cwd: string, warn?: (line: string) => void): Embedder | undefined;
