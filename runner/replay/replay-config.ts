import { type ConfigOf, defineConfig } from "../../core/config.ts";
import { GRAPH_CONFIG, MODEL_CONFIG, RUN_DIR_CONFIG } from "../run/run-config.ts";

/** replay's own options: where the threads fork, the folder, the suffix's swaps, which questions. */
export const REPLAY_OWN_CONFIG = defineConfig({
  from: { type: "string", metavar: "SLOT", help: "where the threads fork (sqlmend graphs --slots)" },
  out: {
    type: "string",
    metavar: "DIR",
    help: "an eval output folder: results.jsonl (the suffix's tokens and calls; the prefix's in each\nrecord's 'replay'), predictions, report.md (what was reused, what was not replayed), run.json;\n'sqlmend compare RUN_DIR DIR' compares it with the original",
  },
  node: { ...GRAPH_CONFIG.node, metavar: "SLOT=FILE", help: "replace a node for the suffix (repeatable; over the run's own swaps)" },
  graph: { type: "string", metavar: "FILE", help: "the graph module of a run made with 'eval --graph FILE' (default: the file its\nrun.json names)" },
  only: { type: "string", choices: ["all", "wrong", "right", "failed"], help: "the questions by the original verdict (default all); --ids picks ids" },
  ids: RUN_DIR_CONFIG.ids,
  concurrency: RUN_DIR_CONFIG.concurrency,
  resume: { type: "boolean", help: "continue a killed or finished replay in --out" },
  checkpoints: { type: "string", metavar: "LOCATION", help: "where the run's threads are (default: what its run.json says)" },
});

/** Every option of `sqlmend replay` and `replay()`: its own and the models' (the graph's options are the run's). */
export const REPLAY_CONFIG = defineConfig({ ...REPLAY_OWN_CONFIG, ...MODEL_CONFIG });
export type ReplayConfig = ConfigOf<typeof REPLAY_CONFIG>;
