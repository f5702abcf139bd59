import { UsageError, UserError } from "./errors.ts";
import { flagOf, type OptionDef, parseOption } from "./options.ts";
import { commandLine } from "./secrets.ts";

/**
 * A command's options, declared once by the run function that reads them (camelCase keys). From the declaration:
 * the typed config the function takes (`ConfigOf`), the check of a script's values (`checkConfig`, errors naming the
 * option), the launcher's flags, usage lines and parse (cli/shared/flag-config.ts: `configFromFlags`, errors naming
 * `--the-flag`), and the command line report.md shows (`commandLineOfConfig`). Nothing turns a config back into flag
 * strings to be parsed again.
 */
export type ConfigDef =
  | { type: "string"; metavar?: string; help: string; choices?: readonly string[] }
  | { type: "int"; metavar?: string; help: string; min?: number; max?: number }
  | { type: "number"; metavar?: string; help: string; min?: number; max?: number }
  | { type: "boolean"; help: string }
  /** A comma list on the command line (`--ids 1,2`), a list in the config. */
  | { type: "list"; metavar?: string; help: string }
  /** A repeatable flag (`--run A --run B`), a list in the config. */
  | { type: "strings"; metavar?: string; help: string }
  /** A repeatable `NAME=VALUE` flag (`--role-model critic=gpt-4o`), a record in the config. */
  | { type: "record"; metavar?: string; help: string };

export type ConfigDefs = Record<string, ConfigDef>;

/** Keeps a declaration's literal types (choices) so its config is precisely typed. */
export const defineConfig = <const Defs extends ConfigDefs>(defs: Defs): Defs => defs;

type ValueOf<D> = D extends { type: "string"; choices: readonly (infer C)[] }
  ? C
  : D extends { type: "string" }
    ? string
    : D extends { type: "int" | "number" }
      ? number
      : D extends { type: "boolean" }
        ? boolean
        : D extends { type: "list" | "strings" }
          ? string[]
          : D extends { type: "record" }
            ? Record<string, string>
            : never;

/** The typed config a declaration gives: every option optional (unset is undefined). */
export type ConfigOf<Defs extends ConfigDefs> = { -readonly [K in keyof Defs]?: ValueOf<Defs[K]> };

type InputOf<D> = D extends { type: "list" | "strings" }
  ? string | number | readonly (string | number)[]
  : D extends { type: "record" }
    ? Readonly<Record<string, string | number>>
    : D extends { type: "string"; choices: readonly (infer C)[] }
      ? C
      : D extends { type: "string" }
        ? string | number
        : ValueOf<D>;

/** What a script may pass for a declaration (closed: a misspelt key does not compile); `checkConfig` makes it a `ConfigOf`. */
export type ConfigInput<Defs extends ConfigDefs> = { [K in keyof Defs]?: InputOf<Defs[K]> };

/** The place a value came from, for its errors: an API option (`limit`) or a flag (`--limit`). */
type Source = "api" | "flag";

const nameOf = (key: string, source: Source) => (source === "flag" ? `--${flagOf(key)}` : key);

/** One value checked and normalised against its declaration; a flag's value arrives as text. */
export function configValue(key: string, def: ConfigDef, raw: unknown, source: Source): unknown {
  if (raw === undefined) return undefined;
  const name = nameOf(key, source);
  const shown = typeof raw === "string" ? `'${raw}'` : JSON.stringify(raw);
  const text = (value: unknown): string => {
    if (typeof value === "string") return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    throw new UsageError(`${name} takes text, not ${JSON.stringify(value)}`);
  };
  switch (def.type) {
    case "boolean":
      if (typeof raw !== "boolean") throw new UsageError(`${name} takes true or false, not ${shown}`);
      return raw;
    case "int":
    case "number": {
      const n = typeof raw === "number" ? raw : typeof raw === "string" && raw.trim() !== "" ? Number(raw) : NaN;
      const whole = def.type === "int";
      const kind = whole ? "a whole number" : "a number";
      const range = def.min !== undefined && def.max !== undefined ? ` from ${def.min} to ${def.max}` : def.min !== undefined ? ` >= ${def.min}` : def.max !== undefined ? ` <= ${def.max}` : "";
      if (!Number.isFinite(n) || (whole && !Number.isInteger(n)) || (def.min !== undefined && n < def.min) || (def.max !== undefined && n > def.max)) {
        throw new UsageError(`${name} takes ${kind}${range}, not ${shown}`);
      }
      return n;
    }
    case "string": {
      if (Array.isArray(raw) || (raw !== null && typeof raw === "object")) throw new UsageError(`${name} takes one value (text or a number), not ${Array.isArray(raw) ? "a list" : "a record"} ${JSON.stringify(raw)}`);
      const value = text(raw);
      if (value.trim() === "") throw new UsageError(`${name} takes a value`);
      if (def.choices && !def.choices.includes(value)) throw new UsageError(`${name} takes ${def.choices.join(", ")}, not ${shown}`);
      return value;
    }
    case "list":
    case "strings": {
      if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) throw new UsageError(`${name} takes a list, not a record ${JSON.stringify(raw)}`);
      const items = (Array.isArray(raw) ? raw.map(text) : [text(raw)]).flatMap((item) => (def.type === "list" ? item.split(",") : [item])).map((s) => s.trim());
      if (!items.length || items.some((s) => s === "")) throw new UsageError(`${name} takes ${def.type === "list" ? "a comma-separated list" : "a value each time"}, not ${shown}`);
      return items;
    }
    case "record": {
      const entries: [string, string][] = [];
      if (raw !== null && typeof raw === "object" && !Array.isArray(raw)) {
        for (const [k, v] of Object.entries(raw as Record<string, unknown>)) entries.push([k, text(v)]);
      } else {
        for (const item of Array.isArray(raw) ? raw.map(text) : [text(raw)]) {
          const at = item.indexOf("=");
          if (at <= 0 || at === item.length - 1) throw new UsageError(`${name} takes NAME=VALUE, not '${item}'`);
          entries.push([item.slice(0, at), item.slice(at + 1)]);
        }
      }
      return Object.fromEntries(entries);
    }
  }
}

/**
 * A script's options checked against a command's declaration: a key it does not declare is an error naming it (unless
 * listed in `pass`: keys the function reads itself, such as `options` or a module object), each value by its kind.
 */
export function checkConfig<Defs extends ConfigDefs>(api: string, defs: Defs, given: Record<string, unknown>, pass: readonly string[] = []): ConfigOf<Defs> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given)) {
    if (pass.includes(key)) continue;
    const def = defs[key];
    if (!def) throw new UsageError(`${api}: unknown option '${key}'`);
    try {
      const checked = configValue(key, def, value, "api");
      if (checked !== undefined) out[key] = checked;
    } catch (error) {
      if (error instanceof UsageError) error.message = `${api}: ${error.message}`;
      throw error;
    }
  }
  return out as ConfigOf<Defs>;
}

/** A graph's own options from a script (`options: { maxReviewTurns: 3 }`), checked by their declarations; unknown ones refused. */
export function checkGraphOptions(api: string, defs: Record<string, OptionDef>, given: Record<string, unknown> | undefined): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(given ?? {})) {
    const def = defs[key];
    if (!def) throw new UsageError(`${api}: unknown option 'options.${key}' (the graph's options: ${Object.keys(defs).join(", ") || "none"})`);
    if (value === undefined) continue;
    if (def.type === "boolean" && typeof value !== "boolean") throw new UsageError(`${api}: options.${key} takes true or false, not ${JSON.stringify(value)}`);
    const raw = def.type === "list" && Array.isArray(value) ? value.join(",") : value;
    if (raw !== null && typeof raw === "object") throw new UsageError(`${api}: options.${key} takes one value, not ${JSON.stringify(value)}`);
    try {
      out[key] = parseOption(key, def, raw);
    } catch (error) {
      if (error instanceof UsageError) error.message = `${api}: ${error.message.replace(`--${flagOf(key)}`, `options.${key}`)}`;
      throw error;
    }
  }
  return out;
}

/**
 * The command line that does what a config does (`sqlmend eval r3 --bench … --limit 5`), secrets masked: what
 * report.md shows as the run's command, whether the launcher or a script started it. Display only: never parsed.
 */
export function commandLineOfConfig(command: string, positionals: readonly string[], defs: ConfigDefs, config: Record<string, unknown>, graphOptions: Record<string, unknown> = {}): string {
  const argv = [...positionals];
  const push = (flag: string, value: unknown, def: ConfigDef | OptionDef | undefined) => {
    if (value === undefined || value === false) return;
    if (value === true) return void argv.push(flag);
    const quote = (item: string) => (/[\s"'$]/.test(item) ? JSON.stringify(item) : item);
    if (def?.type === "record" && value && typeof value === "object") for (const [k, v] of Object.entries(value)) argv.push(flag, quote(`${k}=${v}`));
    else if (def?.type === "strings" && Array.isArray(value)) for (const item of value) argv.push(flag, quote(String(item)));
    else argv.push(flag, quote(Array.isArray(value) ? value.join(",") : String(value)));
  };
  // In the declaration's order (graph options by name), however the script ordered its keys: one config, one line.
  for (const key of Object.keys(defs)) push(`--${flagOf(key)}`, config[key], defs[key]);
  for (const key of Object.keys(graphOptions).sort()) push(`--${flagOf(key)}`, graphOptions[key], undefined);
  return commandLine(command, argv);
}

/** An option a runner's error names (`opt("dbDir")`): a script reads its key, `dbDir`; the launcher its flag, `--db-dir`. */
export class OptionName {
  constructor(
    readonly key: string,
    /** `options.` for a graph's own option (`options.kShot`; `--k-shot` on the launcher). */
    readonly apiPrefix = "",
  ) {}
}
export const opt = (key: string): OptionName => new OptionName(key);
/** A graph's own option in a runner's error: `options.kShot` to a script, `--k-shot` on the launcher. */
export const graphOpt = (key: string): OptionName => new OptionName(key, "options.");

const FLAG_WORDING = Symbol("flagWording");

/** The two wordings of a message naming options: a script's (keys) and the launcher's (flags). */
export class OptionText {
  constructor(
    readonly api: string,
    readonly flag: string,
  ) {}
}

/** A piece of a message naming options, for a part of an `optionUsageError` (`${cond ? optionText\`, ${opt("ids")} …\` : ""}`). */
export function optionText(strings: TemplateStringsArray, ...parts: unknown[]): OptionText {
  const join = (wording: "api" | "flag") =>
    strings.reduce((text, piece, i) => {
      const part = parts[i];
      const shown = i >= parts.length ? "" : part instanceof OptionName ? (wording === "api" ? `${part.apiPrefix}${part.key}` : `--${flagOf(part.key)}`) : part instanceof OptionText ? part[wording] : String(part);
      return text + piece + shown;
    }, "");
  return new OptionText(join("api"), join("flag"));
}

const wordings = (strings: TemplateStringsArray, parts: unknown[]): OptionText => optionText(strings, ...parts);

/**
 * The one convention for a runner's errors about options (docs/internals.md): the message names each option with
 * `opt(key)`; it reads in a script's words (`bench DIR is required`, which the run API prefixes with its name) and
 * carries the launcher's (`--bench DIR is required`), which `sqlmend` prints instead (`flagWordingOf`).
 */
export function optionUsageError(strings: TemplateStringsArray, ...parts: unknown[]): UsageError {
  const { api, flag } = wordings(strings, parts);
  return Object.assign(new UsageError(api), { [FLAG_WORDING]: flag });
}

/** As `optionUsageError`, for a failure that is not a usage mistake (exit status 1). */
export function optionUserError(strings: TemplateStringsArray, ...parts: unknown[]): UserError {
  const { api, flag } = wordings(strings, parts);
  return Object.assign(new UserError(api), { [FLAG_WORDING]: flag });
}

/** An error's launcher wording when it names options (`optionUsageError`), else undefined. */
export const flagWordingOf = (error: unknown): string | undefined =>
  error && typeof error === "object" ? ((error as { [FLAG_WORDING]?: string })[FLAG_WORDING] ?? undefined) : undefined;

/**
 * A run API function's body with its errors about options prefixed with the function's name (`runEval: bench DIR is
 * required`): a script never typed a flag, and an error naming an option names the call it came from.
 */
export async function inApiWords<T>(api: string, body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (error) {
    if (flagWordingOf(error) !== undefined && error instanceof Error && !error.message.startsWith(`${api}:`)) error.message = `${api}: ${error.message}`;
    throw error;
  }
}
