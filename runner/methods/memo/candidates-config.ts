import { type ConfigOf, defineConfig } from "../../../core/config.ts";
import { GRAPH_CONFIG } from "../../run/run-config.ts";

/** Every option of `sqlmend memo candidates` and `writeCandidates`. */
export const CANDIDATES_CONFIG = defineConfig({
  run: { type: "string", metavar: "DIR", help: "a memo-sql eval's output folder" },
  out: { type: "string", metavar: "FILE", help: "the candidates file, for memo-refine --candidates FILE" },
  checkpoints: { ...GRAPH_CONFIG.checkpoints, help: "where the eval's threads are, as its --checkpoints (default: the eval's own store)" },
});
export type CandidatesConfig = ConfigOf<typeof CANDIDATES_CONFIG>;
