import { SELECTION_CONFIG } from "../../runner/run/run-config.ts";
import { usageOf } from "../shared/flag-config.ts";

// Apart from run-usage.ts (which loads the graphs for their options), so `score --help` loads no graph.

/** Where the questions come from: the benchmark, its split, another question file, your own databases. */
export const SELECTION_USAGE = usageOf(SELECTION_CONFIG, ["bench", "split", "questions", "dbDir"]);

/** Which of its questions: a subset, a seeded sample. */
export const SUBSET_USAGE = usageOf(SELECTION_CONFIG, ["limit", "ids", "sample", "sampleSeed"]);
