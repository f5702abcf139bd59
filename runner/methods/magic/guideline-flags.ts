// The flag names a guideline run's options have in runner/run's flag-value helpers, which the training body still
// calls (`legacyValuesOf`); goes when they take the typed config. The launcher's flags come from `GUIDELINE_CONFIG`.
import { graphFlags, runFlags } from "../../run/run-options.ts";
import { RUN_DIR_FLAGS } from "../../run/output-dir-flags.ts";

export const MAGIC_GUIDELINE_FLAGS = { ...runFlags, ...graphFlags(), ...RUN_DIR_FLAGS, batch: { type: "string" }, semantics: { type: "string" } } as const;
