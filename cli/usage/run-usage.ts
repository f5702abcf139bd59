import { CORRECTION_CONFIG, GRAPH_CONFIG, MODEL_CONFIG, SELECTION_CONFIG } from "../../runner/run/run-config.ts";
import { usageOf } from "../shared/flag-config.ts";

// The `--help` sections every run command shares, made from the run-level declarations (runner/run/run-config.ts).

/** The models, the graph's shared knobs, correction: `ask`, `eval` and the methods' runs. */
export const RUN_FLAGS_USAGE = `Model:
${usageOf(MODEL_CONFIG)}
Graph:
${usageOf(GRAPH_CONFIG)}
Correction (corrector graphs):
${usageOf(CORRECTION_CONFIG)}`;

/** Where the questions come from: the benchmark, its split, another question file, your own databases. */
export const SELECTION_USAGE = usageOf(SELECTION_CONFIG, ["bench", "split", "questions", "dbDir"]);

/** Which of its questions: a subset, a seeded sample. */
export const SUBSET_USAGE = usageOf(SELECTION_CONFIG, ["limit", "ids", "sample", "sampleSeed"]);
