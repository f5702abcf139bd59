// A memory build's options as flag names, for `sqlmend experiment`'s recipes (which still hand over flag values;
// `memoBuild` and `memoCandidates` parse them into the typed config). The launcher's flags come from the declarations.
import { legacyFlagTableOf, type FlagValues } from "../../run/api-options.ts";
import { MEMORY_BUILD_CONFIG } from "./memory-build-config.ts";

/** A recipe run's flag values. */
export interface MemoInput {
  values: FlagValues;
}

export const memoBuildFlags = legacyFlagTableOf(MEMORY_BUILD_CONFIG);
