import { type ConfigOf, defineConfig } from "../../../core/config.ts";
import { GRAPH_CONFIG, RUN_DIR_CONFIG, SELECTION_CONFIG } from "../../run/run-config.ts";
import { MEMO_MODEL_CONFIG } from "./memo-model-config.ts";

/** `memo build`'s own options, beside the selection's, the file's and the models'. */
export const MEMORY_BUILD_OWN_CONFIG = defineConfig({
  split: { ...SELECTION_CONFIG.split, help: "default train" },
  out: { type: "string", metavar: "FILE", help: "the memory file (made, with its folder, when missing)" },
  resume: { type: "boolean", help: "continue a killed or finished build of --out without redoing finished questions" },
  elicit: { type: "string", choices: ["sampling", "pipeline"], help: "sampling (default: --samples requests of role 'sampler') or pipeline (memo-sql's\nnine candidates, uncorrected)" },
  samples: { type: "int", min: 1, help: "sampling: requests per question (default 4)" },
  sampleTemperature: { type: "number", metavar: "T", min: 0, max: 2, help: "sampling: the sampler's temperature (default 0.8)" },
  semantics: { type: "string", choices: ["bird", "spider"], help: "how candidates are judged against the gold (default: the benchmark's own)" },
  queryTimeoutMs: GRAPH_CONFIG.queryTimeoutMs,
});

/** Every option of `sqlmend memo build` and `buildMemory`. */
export const MEMORY_BUILD_CONFIG = defineConfig({ ...MEMO_MODEL_CONFIG, ...RUN_DIR_CONFIG, ...MEMORY_BUILD_OWN_CONFIG });
export type MemoryBuildConfig = ConfigOf<typeof MEMORY_BUILD_CONFIG>;
