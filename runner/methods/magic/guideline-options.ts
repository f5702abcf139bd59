// The options of a MAGIC guideline run, declared once: what `learnGuideline` takes and `sqlmend magic guideline` parses.
import { graphFlags, runFlags } from "../../run/run-options.ts";
import { RUN_DIR_FLAGS } from "../../run/output-dir-flags.ts";

/** `sqlmend magic guideline`'s flags: the run's (model, graph knobs, node swaps), the graphs' own options, the selection's, its own. */
export const GUIDELINE_OWN_FLAGS = { batch: { type: "string" }, semantics: { type: "string" } } as const;
export const MAGIC_GUIDELINE_FLAGS = {
  ...runFlags,
  ...graphFlags(),
  ...RUN_DIR_FLAGS,
  ...GUIDELINE_OWN_FLAGS,
} as const;
