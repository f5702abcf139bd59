import type { ParseArgsConfig } from "node:util";
import { type ConfigDef, type ConfigDefs, type ConfigOf, configValue } from "../../core/config.ts";
import { flagOf } from "../../core/options.ts";

// The launcher's side of a command's declared options (core/config.ts): its parseArgs table, its usage lines, and
// the parsed flags turned once into the typed config the run function takes.

type FlagKind = { type: "string" | "boolean"; multiple?: boolean };

// A comma list may also be given again (`--ids 1,2 --ids 3`): its items join.
const kindOf = (def: ConfigDef): FlagKind => (def.type === "boolean" ? { type: "boolean" } : def.type === "strings" || def.type === "record" || def.type === "list" ? { type: "string", multiple: true } : { type: "string" });

/** The parseArgs table of a declaration: `--kebab-case` of each key. */
export function flagTableOf(defs: ConfigDefs): Record<string, FlagKind> & NonNullable<ParseArgsConfig["options"]> {
  return Object.fromEntries(Object.entries(defs).map(([key, def]) => [flagOf(key), kindOf(def)]));
}

/** The flags parseArgs gave, as the declaration's typed config: each value checked by its kind, errors naming `--the-flag`. */
export function configFromFlags<Defs extends ConfigDefs>(defs: Defs, values: Record<string, string | boolean | (string | boolean)[] | undefined>): ConfigOf<Defs> {
  const out: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(defs)) {
    const value = values[flagOf(key)];
    if (value === undefined) continue;
    const checked = configValue(key, def, value, "flag");
    if (checked !== undefined) out[key] = checked;
  }
  return out as ConfigOf<Defs>;
}

/** A flag as `--help` writes it with its value: `--limit N`, `--split dev|train`, `--role-model ROLE=NAME`. */
export function flagText(key: string, def: ConfigDef): string {
  const flag = `--${flagOf(key)}`;
  if (def.type === "boolean") return flag;
  if (def.metavar) return `${flag} ${def.metavar}`;
  if (def.type === "string" && def.choices) return `${flag} ${def.choices.join("|")}`;
  if (def.type === "int") return `${flag} N`;
  if (def.type === "number") return `${flag} X`;
  if (def.type === "list") return `${flag} A,B,...`;
  if (def.type === "record") return `${flag} NAME=VALUE`;
  return `${flag} VALUE`;
}

/** `--help` lines of a declaration (of `keys` only, in their order, when given): the flag and its value, its help text folded under it past the column. */
export function usageOf(defs: ConfigDefs, keys?: readonly string[], width = 28): string {
  const entries = keys ? keys.map((key) => [key, defs[key]!] as const) : Object.entries(defs);
  return entries
    .map(([key, def]) => {
      const left = `  ${flagText(key, def)}`;
      const [first, ...rest] = def.help.split("\n");
      const head = left.length + 1 < width ? `${left.padEnd(width)}${first}` : `${left}\n${" ".repeat(width)}${first}`;
      return [head, ...rest.map((line) => `${" ".repeat(width)}${line}`)].join("\n");
    })
    .join("\n");
}
