import { type ConfigOf, defineConfig } from "../../../core/config.ts";
import { declaredOptionsFrom, graphOptionsOfValues } from "../../run/run-options.ts";
import { findManifest } from "../../../graphs/registry.ts";
import type { GraphInfo } from "../../../graphs/spec.ts";
import { magicFeedbackManifest, magicGuidelineManifest } from "../../../graphs/manifests/magic.ts";
import { CORRECTION_CONFIG, GRAPH_CONFIG, MODEL_CONFIG, RUN_DIR_CONFIG, SELECTION_CONFIG } from "../../run/run-config.ts";

/** `magic guideline`'s own options, beside the selection's, the folder's, the models' and the graph's shared knobs. */
export const GUIDELINE_OWN_CONFIG = defineConfig({
  split: { ...SELECTION_CONFIG.split, help: "default train (the guideline must not be learnt on the evaluation split)" },
  initial: { ...CORRECTION_CONFIG.initial, help: "the initial method: a generator graph run now (default baseline) or its predictions file" },
  out: {
    ...RUN_DIR_CONFIG.out,
    help: "guideline.md, guideline-batch-NNN.md after each batch, interactions.jsonl (a line per\nagent call), results.jsonl (a line per question), stats.json, run.json,\npredict_<split>.json (the answers after the cycle, for 'sqlmend score --ves')",
  },
  batch: { type: "int", metavar: "B", min: 1, help: "successful feedbacks per merge (default 10)" },
  concurrency: { ...RUN_DIR_CONFIG.concurrency, help: "failures in flight (default 4); --max-requests caps model requests" },
  resume: { ...RUN_DIR_CONFIG.resume, help: "continue a killed or finished run in --out: no failure and no merge is redone; it\nmay add questions, never drop or change any" },
  semantics: { type: "string", choices: ["bird", "spider"], help: "how revisions are judged against the gold (default: the benchmark's own)" },
});

// The cycle is magic-feedback's (no `graph`), run on every failure (no `correct`).
const { graph: _graph, ...GUIDELINE_GRAPH_CONFIG } = GRAPH_CONFIG;

/**
 * Every option of `sqlmend magic guideline` and `learnGuideline` (the cycle's and the merge's own, `maxIter`,
 * `noManager`, ..., are the graphs' options: `options`, or flags of the command).
 */
export const GUIDELINE_CONFIG = defineConfig({ ...RUN_DIR_CONFIG, ...MODEL_CONFIG, ...GUIDELINE_GRAPH_CONFIG, ...GUIDELINE_OWN_CONFIG });
export type GuidelineConfig = ConfigOf<typeof GUIDELINE_CONFIG>;

/** The graphs whose own options a guideline run takes: the cycle's, the merge's, and the initial generator's when `initial` names one. */
export function guidelineGraphs(initial: string | undefined): GraphInfo[] {
  const generator = findManifest(initial ?? "baseline");
  return [magicFeedbackManifest, magicGuidelineManifest, ...(generator ? [generator] : [])];
}

/**
 * The graphs' own options among flag values (the launcher's, a recipe's), parsed by their declarations into the typed
 * record the run takes; a flag only other graphs declare is refused, naming them.
 */
export function guidelineGraphOptionsOfValues(values: Record<string, unknown>): Record<string, unknown> {
  const graphs = guidelineGraphs(typeof values.initial === "string" ? values.initial : undefined);
  declaredOptionsFrom(graphs[0]!, values, graphs.slice(1));
  return graphOptionsOfValues(graphs, values);
}
