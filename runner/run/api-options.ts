import { UsageError } from "../../core/errors.ts";
import { flagOf } from "../../core/options.ts";
import { type ConfigDefs, type ConfigOf, configValue, flagWordingOf } from "../../core/config.ts";

// What is left of options as flag text below the launcher: a recipe's options (written as flags in its file) parsed
// once into a typed config, and the API's wording of errors raised deep in tools that name a flag.

/** Option values as flags hold them: by flag name, strings, booleans and lists of strings (a recipe's options). */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/**
 * Runs a run-API function's body with its errors said in the API's words: a flag named in a message (`--bench DIR is
 * required`) becomes the option's name (`bench`), since a script never typed the flag.
 */
export async function asApiErrors<T>(api: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    // An error that names options by key already (core/config.ts `optionUsageError`) only needs the API's name.
    if (flagWordingOf(error) !== undefined && error instanceof Error) {
      if (!error.message.startsWith(`${api}:`)) error.message = `${api}: ${error.message}`;
    } else if (error instanceof UsageError || (error instanceof Error && error.name === "UserError")) {
      const message = error.message.replace(/(^|[\s(,'"`])--([a-z][a-z0-9-]*)/g, (_, before: string, flag: string) => `${before}${camelOf(flag)}`);
      if (message !== error.message) {
        error.message = message.startsWith(`${api}:`) ? message : `${api}: ${message}`;
      }
    }
    throw error;
  }
}

const camelOf = (flag: string): string => flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

/**
 * Flag values (by flag name, as parseArgs gives them) as a declaration's typed config, each checked by its kind
 * (errors name `--the-flag`): an experiment recipe's options, which the recipe file writes as flags (text a person
 * typed), parsed once into the typed config of the run they belong to.
 */
export function configOfFlagValues<Defs extends ConfigDefs>(defs: Defs, values: Record<string, unknown>): ConfigOf<Defs> {
  const out: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(defs)) {
    const checked = configValue(key, def, values[flagOf(key)], "flag");
    if (checked !== undefined) out[key] = checked;
  }
  return out as ConfigOf<Defs>;
}
