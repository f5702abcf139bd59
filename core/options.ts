import { UsageError } from "./errors.ts";

/**
 * A graph's own knobs, declared once in its spec. The launcher derives from the declaration: the flags
 * (`--kebab-case` of the key), their `--help` lines, validation with one-line errors, the report's settings and
 * `--resume`'s check. A node reads them with `readOptions(defs, options)`: typed, defaults filled in.
 */
export type OptionDef =
  | { type: "int"; default: number; min?: number; max?: number; help: string; affectsAnswers?: boolean }
  | { type: "number"; default: number; min?: number; max?: number; help: string; affectsAnswers?: boolean }
  | { type: "boolean"; default: boolean; help: string; affectsAnswers?: boolean }
  | { type: "choice"; choices: readonly string[]; default: string; help: string; affectsAnswers?: boolean }
  /** A free string such as a file path; `default` absent means "not set". */
  | {
      type: "string";
      default?: string;
      metavar?: string;
      help: string;
      affectsAnswers?: boolean;
      /** The launcher refuses to run the graph without it (one-line usage error). */
      required?: boolean;
      /** A file path: resolved against the working directory; the report and `--resume` record its sha256. */
      file?: boolean;
    }
  /** Comma-separated list. */
  | { type: "list"; default: readonly string[]; metavar?: string; help: string; affectsAnswers?: boolean };

export type OptionDefs = Record<string, OptionDef>;

/** The value an option declaration gives a node (`readOptions`). */
export type OptionValue<D> = D extends { type: "int" | "number" }
  ? number
  : D extends { type: "boolean" }
    ? boolean
    : D extends { type: "choice"; choices: readonly (infer C)[] }
      ? C
      : D extends { type: "list" }
        ? string[]
        : D extends { type: "string"; default: string }
          ? string
          : string | undefined;

export type OptionValues<Defs extends OptionDefs> = { [K in keyof Defs]: OptionValue<Defs[K]> };

/** Keeps the literal types of a declaration (choices, defaults) so `readOptions` is precisely typed. */
export const defineOptions = <const Defs extends OptionDefs>(defs: Defs): Defs => defs;

/** `maxReviewTurns` → `max-review-turns`. */
export const flagOf = (key: string): string => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The declared options' values from a graph's build options, defaults filled in (for nodes and graph files). */
export function readOptions<Defs extends OptionDefs>(defs: Defs, options: Record<string, unknown> | undefined): OptionValues<Defs> {
  const out: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(defs)) {
    const value = options?.[key];
    out[key] = value === undefined ? (def.type === "list" ? [...def.default] : def.default) : value;
  }
  return out as OptionValues<Defs>;
}

/** parseArgs declarations for every option of the given graphs. */
export function optionFlags(defsList: OptionDefs[]): Record<string, { type: "string" | "boolean" }> {
  const flags: Record<string, { type: "string" | "boolean" }> = {};
  for (const defs of defsList) {
    for (const [key, def] of Object.entries(defs)) flags[flagOf(key)] = { type: def.type === "boolean" ? "boolean" : "string" };
  }
  return flags;
}

/** Parses and validates one option's flag value; undefined when the flag was not given. */
export function parseOption(key: string, def: OptionDef, raw: unknown): unknown {
  if (raw === undefined) return undefined;
  const flag = `--${flagOf(key)}`;
  switch (def.type) {
    case "boolean":
      return Boolean(raw);
    case "int":
    case "number": {
      const n = Number(raw);
      const whole = def.type === "int";
      if (String(raw).trim() === "" || !Number.isFinite(n) || (whole && !Number.isInteger(n))) {
        throw new UsageError(`${flag} takes ${whole ? "a whole number" : "a number"}, not '${raw}'`);
      }
      if (def.min !== undefined && n < def.min) throw new UsageError(`${flag} takes a number >= ${def.min}, not '${raw}'`);
      if (def.max !== undefined && n > def.max) throw new UsageError(`${flag} takes a number <= ${def.max}, not '${raw}'`);
      return n;
    }
    case "choice":
      if (!def.choices.includes(String(raw))) throw new UsageError(`${flag} takes ${def.choices.join(", ")}; not '${raw}'`);
      return String(raw);
    case "list": {
      const items = String(raw).split(",").map((s) => s.trim()).filter(Boolean);
      if (!items.length) throw new UsageError(`${flag} takes a comma-separated list, not '${raw}'`);
      return items;
    }
    case "string":
      if (String(raw).trim() === "") throw new UsageError(`${flag} takes a value`);
      return String(raw);
  }
}

/** An option as its flag is written with its value (`--retrieval filtered|top4|random`, `--k-shot N`): `--help` and the docs' tables. */
export function flagWithValue(key: string, def: OptionDef): string {
  const flag = `--${flagOf(key)}`;
  if (def.type === "boolean") return flag;
  if (def.type === "choice") return `${flag} ${def.choices.join("|")}`;
  if (def.type === "int") return `${flag} N`;
  if (def.type === "number") return `${flag} X`;
  return `${flag} ${def.metavar ?? (def.type === "list" ? "A,B,..." : "VALUE")}`;
}

/** The `--help` lines of a graph's options. */
export function optionsUsage(title: string, defs: OptionDefs | undefined): string {
  const entries = Object.entries(defs ?? {});
  if (!entries.length) return "";
  const lefts = entries.map(([key, def]) => flagWithValue(key, def));
  const width = Math.max(26, ...lefts.map((l) => l.length + 2));
  const lines = entries.map(([, def], i) => {
    const shown = def.type === "list" ? def.default.join(",") : def.default;
    const dflt = def.type === "boolean" || shown === undefined || shown === "" ? "" : ` (default ${shown})`;
    return `  ${lefts[i]!.padEnd(width)}${def.help}${dflt}`;
  });
  return `${title}:\n${lines.join("\n")}`;
}
