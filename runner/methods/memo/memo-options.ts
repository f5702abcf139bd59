// The flag tables of `sqlmend memo build` and `memo candidates` (the model's, the selection's, their own).
import { runFlags } from "../../run/run-options.ts";
import { RUN_DIR_FLAGS } from "../../run/output-dir-flags.ts";
import type { FlagValues } from "../../run/api-options.ts";

/** A subcommand's flag values (the launcher's parse, or the API's options turned into flags by `flagValuesOf`). */
export interface MemoInput {
  values: FlagValues;
  positionals: string[];
  argv?: string[];
}

export const MODEL_FLAGS = [
  "model",
  "base-url",
  "config",
  "role-model",
  "temperature",
  "seed",
  "request-timeout-ms",
  "max-retries",
  "max-requests",
  "stream",
  "structured-method",
  "embedding-model",
  "embedding-base-url",
  "cache",
  "mock-error-rate",
] as const;
export const modelFlags = Object.fromEntries(MODEL_FLAGS.map((k) => [k, runFlags[k]])) as Pick<typeof runFlags, (typeof MODEL_FLAGS)[number]>;

/** `memo build`'s flags: the model's, the selection's (bench, split, questions, limit, ids, concurrency, resume), its own. */
export const memoBuildFlags = {
  ...modelFlags,
  ...RUN_DIR_FLAGS,
  samples: { type: "string" },
  elicit: { type: "string" },
  "sample-temperature": { type: "string" },
  semantics: { type: "string" },
  "query-timeout-ms": { type: "string" },
} as const;
