// A guideline run's options as flag names, for `sqlmend experiment`'s recipes (which still hand over flag values;
// `learnFrom` parses them into the typed config). The launcher's flags come from `GUIDELINE_CONFIG` (cli/commands/magic.ts).
import { graphFlags } from "../../run/run-options.ts";
import { legacyFlagTableOf } from "../../run/api-options.ts";
import { GUIDELINE_CONFIG } from "./guideline-config.ts";

export const MAGIC_GUIDELINE_FLAGS = { ...legacyFlagTableOf(GUIDELINE_CONFIG), ...graphFlags() } as const;
