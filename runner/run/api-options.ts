import { UsageError } from "../../core/errors.ts";
import { flagOf } from "../../core/options.ts";
import { commandLine } from "../../core/secrets.ts";
import { type ConfigDefs, type ConfigOf, configValue, flagWordingOf } from "../../core/config.ts";

/** A command's options table: flag name → parseArgs kind (`multiple` for repeatable flags). */
export type FlagTable = Record<string, { type: "string" | "boolean"; multiple?: boolean }>;

/**
 * What every run function takes (`runEval`, `learnGuideline`, `buildMemory`, `auditGold`), by the camelCase names of
 * its command's flags: where the questions come from and which, where the run goes, and the graph's own `options`;
 * any other flag of the command by its name too (`flagValuesOf` refuses one the command does not take).
 */
export interface RunApiOptions {
  bench?: string;
  out: string;
  split?: string;
  limit?: number;
  ids?: string | readonly string[];
  sample?: number;
  sampleSeed?: number;
  concurrency?: number;
  resume?: boolean;
  options?: Record<string, unknown>;
}

/** `max-fix-rounds` → `maxFixRounds`, as a type. */
export type CamelOf<S extends string> = S extends `${infer Head}-${infer Tail}` ? `${Head}${Capitalize<CamelOf<Tail>>}` : S;

type Scalar = string | number;
/** A flag's value through the API: a switch is a boolean; a value text or a number (a list for comma lists); a repeatable flag a list or a record of NAME=VALUE items. */
type ApiValueOf<F> = F extends { type: "boolean" } ? boolean : F extends { multiple: true } ? Scalar | readonly Scalar[] | Readonly<Record<string, Scalar>> : Scalar | readonly Scalar[];

/**
 * A command's flags as the run API takes them: camelCase names, typed values, closed — a misspelt option does not
 * compile (`limt`), a record where one value goes does not either (`model: { name: "x" }`).
 */
export type ApiOptionsOf<T> = { [K in keyof T & string as CamelOf<K>]?: ApiValueOf<T[K]> };

/** Option values as a command's flags hold them: by flag name, strings, booleans and lists of strings. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;

/** The values parseArgs gives for a flag table, typed by it. */
export type FlagValuesOf<T> = { [K in keyof T]?: T[K] extends { multiple: true } ? string[] : T[K] extends { type: "boolean" } ? boolean : string };

/**
 * The run API's options (camelCase names of a command's flags, typed values) as the command's flag values: what the
 * launcher would have parsed from the same command line, so a script and the launcher run the very same code. A name
 * the command does not take is an error naming it; `options` holds the graph's own options (camelCase, as the graph
 * declares them); a record value (`node: { generate: "./my.ts" }`, `roleModel: { critic: "gpt-4o" }`) becomes
 * `NAME=VALUE` items of a repeatable flag.
 */
export function flagValuesOf(api: string, given: Record<string, unknown>, table: FlagTable, graphOptions: Record<string, unknown> = {}): FlagValues {
  const values: FlagValues = {};
  const put = (key: string, flag: string, value: unknown, known: FlagTable[string] | undefined) => {
    if (value === undefined) return;
    if (!known) throw new UsageError(`${api}: unknown option '${key}'`);
    if (known.type === "boolean") {
      if (typeof value !== "boolean") throw new UsageError(`${api}: ${key} takes true or false, not ${JSON.stringify(value)}`);
      values[flag] = value;
      return;
    }
    // A record is NAME=VALUE items of a repeatable flag; where one value goes it would run with "name=x" as the value.
    if (isRecord(value) && !known.multiple) throw new UsageError(`${api}: ${key} takes one value (text or a number), not a record ${JSON.stringify(value)}`);
    const items = isRecord(value) ? Object.entries(value).map(([k, v]) => `${k}=${scalar(key, v)}`) : Array.isArray(value) ? value.map((v) => scalar(key, v)) : [scalar(key, value)];
    values[flag] = known.multiple ? items : Array.isArray(value) ? items.join(",") : items[0]!;
  };
  for (const [key, value] of Object.entries(given)) {
    if (key === "options") continue;
    put(key, flagOf(key), value, table[flagOf(key)]);
  }
  for (const [key, value] of Object.entries(graphOptions)) {
    const flag = flagOf(key);
    if (value === false && table[flag]?.type === "boolean") continue;
    put(`options.${key}`, flag, value, table[flag]);
  }
  return values;
}

const isRecord = (value: unknown): value is Record<string, unknown> => !!value && typeof value === "object" && !Array.isArray(value);

function scalar(key: string, value: unknown): string {
  if (typeof value === "string" || typeof value === "number" || typeof value === "bigint") return String(value);
  throw new UsageError(`option '${key}' takes text or a number, not ${JSON.stringify(value)}`);
}

/**
 * The command line that does what these values do (`sqlmend eval r3 --bench … --limit 5`), secrets masked: what
 * report.md shows as the run's command, whether the launcher or a script started it.
 */
export function commandLineOf(command: string, positionals: string[], values: FlagValues): string {
  const argv = [...positionals];
  for (const [flag, value] of Object.entries(values)) {
    if (value === undefined || value === false) continue;
    if (value === true) argv.push(`--${flag}`);
    else for (const item of Array.isArray(value) ? value : [value]) argv.push(`--${flag}`, /[\s"'$]/.test(item) ? JSON.stringify(item) : item);
  }
  return commandLine(command, argv);
}

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
 * (errors name `--the-flag`): for the commands whose run functions still read flag values (magic guideline, memo
 * build, the TS-SQL audit, experiment, link) where they call a function that takes the typed config. Goes with them.
 */
export function configOfFlagValues<Defs extends ConfigDefs>(defs: Defs, values: Record<string, unknown>): ConfigOf<Defs> {
  const out: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(defs)) {
    const checked = configValue(key, def, values[flagOf(key)], "flag");
    if (checked !== undefined) out[key] = checked;
  }
  return out as ConfigOf<Defs>;
}

type Kebab<S extends string> = S extends `${infer Head}${infer Tail}` ? `${Head extends Lowercase<Head> ? Head : `-${Lowercase<Head>}`}${Kebab<Tail>}` : S;

/** A declaration's parseArgs table, typed by flag name, for the commands that still read flag values (the launcher's: cli/shared/flag-config.ts `flagTableOf`). */
export type LegacyFlagTableOf<Defs extends ConfigDefs> = {
  [K in keyof Defs & string as Kebab<K>]: Defs[K] extends { type: "boolean" } ? { type: "boolean" } : Defs[K] extends { type: "strings" | "record" | "list" } ? { type: "string"; multiple: true } : { type: "string" };
};

export function legacyFlagTableOf<Defs extends ConfigDefs>(defs: Defs): LegacyFlagTableOf<Defs> {
  return Object.fromEntries(
    Object.entries(defs).map(([key, def]) => [flagOf(key), def.type === "boolean" ? { type: "boolean" } : def.type === "strings" || def.type === "record" || def.type === "list" ? { type: "string", multiple: true } : { type: "string" }]),
  ) as LegacyFlagTableOf<Defs>;
}

/** A whole-number flag value, checked (`--name takes a whole number >= min`): for the commands that still read flag values. */
export function intFlag(values: Record<string, unknown>, name: string, min = 0): number | undefined {
  const raw = values[name];
  if (raw === undefined) return undefined;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} takes a whole number >= ${min}, not '${raw}'`);
  return n;
}
