// How a memo body names an option in its errors: by its key to a script (`memoAdd: wrong SQL does not execute`), as
// a flag to the launcher's user (`--wrong SQL does not execute`). The launcher passes `flagName`, the API `keyName`.
import { UsageError } from "../../../core/errors.ts";
import { flagOf } from "../../../core/options.ts";

export type OptionName = (key: string) => string;

export const keyName: OptionName = (key) => key;
export const flagName: OptionName = (key) => `--${flagOf(key)}`;

/** The options a body cannot run without: the first missing one is a usage error naming it. */
export function requireOptions<C extends Record<string, unknown>>(config: C, keys: readonly (keyof C & string)[], name: OptionName): void {
  for (const key of keys) if (config[key] === undefined) throw new UsageError(`${name(key)} is required`);
}
