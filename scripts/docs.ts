/**
 * The docs' tables that copy a declaration, made from it: `npx tsx scripts/docs.ts` rewrites every marked region of
 * README.md, ARCHITECTURE.md and docs/**.md,
 *
 *   <!-- generated: options r3 r3-review -->   the options those graphs declare (graph-wide and slot-owned)
 *   <!-- generated: recipes -->                the built-in experiment recipes
 *   <!-- generated: commands -->               every launcher command's usage, as its --help prints it
 *   ...
 *   <!-- /generated -->
 *
 * from the graph registry (graphs/registry.ts, `optionDefsOf`), the recipes (runner/experiment/built-in-recipes.ts) and the
 * commands (cli/commands/index.ts: each command's usage, which declares its flags).
 * test/docs.test.ts fails while a region differs from what this makes, so the tables never rot.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { flagWithValue, type OptionDef } from "../core/options.ts";
import { type GraphInfo, optionDefsOf } from "../graphs/manifests/manifest.ts";
import { graphManifests } from "../graphs/registry.ts";
import { BUILT_IN_RECIPES } from "../runner/experiment/built-in-recipes.ts";
import type { Recipe } from "../runner/experiment/recipe.ts";
import { commands } from "../cli/commands/index.ts";

export const DOCS_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** `<!-- generated: WHAT ARGS -->` … `<!-- /generated -->`: the marker's text, then the region's body. */
const REGION = /(<!-- generated: ([^>]*?) -->\n)([\s\S]*?)(<!-- \/generated -->)/g;

/** The Markdown files whose regions are generated and whose links are checked: README, ARCHITECTURE, docs/**. */
export function docFiles(root = DOCS_ROOT): string[] {
  const walk = (dir: string): string[] =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : e.name.endsWith(".md") ? [path.join(dir, e.name)] : []))
      : [];
  return [...["README.md", "ARCHITECTURE.md"].map((f) => path.join(root, f)).filter((f) => fs.existsSync(f)), ...walk(path.join(root, "docs")).sort()];
}

const cell = (text: string): string => text.replace(/\|/g, "\\|").replace(/\n/g, " ");

function defaultOf(def: OptionDef): string {
  if (def.type === "string") return def.required ? "required" : def.default === undefined ? "–" : `\`${def.default}\``;
  if (def.type === "list") return def.default.length ? `\`${def.default.join(",")}\`` : "–";
  if (def.type === "boolean") return def.default ? "on" : "off";
  return `\`${def.default}\``;
}

/** A number's bounds, shown beside its default. */
const rangeOf = (def: OptionDef): string =>
  (def.type === "int" || def.type === "number") && (def.min !== undefined || def.max !== undefined) ? ` (${def.min ?? "…"}–${def.max ?? "…"})` : "";

function notesOf(def: OptionDef): string {
  const notes: string[] = [];
  if (def.type === "string" && def.file) notes.push("a file: the report and `--resume` record its sha256");
  if (def.affectsAnswers === false) notes.push("not a setting of the run");
  return notes.length ? `; ${notes.join("; ")}` : "";
}

/**
 * The options a run of each graph takes, as `optionDefsOf` gives them (what flags, `--help`, validation and `--resume`
 * derive from): one row per declaration, with the graphs that take it and whether the graph or a slot owns it (a slot's
 * own options go when the slot is replaced with `--node`).
 */
export function optionsTable(graphNames: string[], graphs: GraphInfo[] = graphManifests): string {
  const rows = new Map<string, { key: string; def: OptionDef; owner: string; graphs: string[] }>();
  for (const name of graphNames) {
    const graph = graphs.find((g) => g.name === name);
    if (!graph) throw new Error(`docs: no graph '${name}' in the registry (a generated options region names it)`);
    for (const [key, def] of Object.entries(optionDefsOf(graph))) {
      const slot = Object.entries(graph.slots).find(([, info]) => info.options && key in info.options)?.[0];
      const owner = graph.options && key in graph.options ? "graph" : `slot \`${slot}\``;
      const id = `${key} ${owner} ${JSON.stringify(def)}`;
      const row = rows.get(id) ?? { key, def, owner, graphs: [] };
      row.graphs.push(name);
      rows.set(id, row);
    }
  }
  const none = graphNames.filter((name) => ![...rows.values()].some((r) => r.graphs.includes(name)));
  const lines = [
    "| option | default | graphs | declared by | what it does |",
    "|---|---|---|---|---|",
    ...[...rows.values()].map((r) => `| \`${cell(flagWithValue(r.key, r.def))}\` | ${cell(defaultOf(r.def) + rangeOf(r.def))} | ${r.graphs.join(", ")} | ${r.owner} | ${cell(r.def.help + notesOf(r.def))} |`),
  ];
  if (!rows.size) lines.length = 0;
  if (none.length) lines.push(...(rows.size ? [""] : []), `No options of their own: ${none.map((n) => `\`${n}\``).join(", ")}.`);
  return lines.join("\n");
}

/** What `{set:NAME}` values a recipe's runs read (files only the user has). */
const setsOf = (recipe: Recipe): string[] => [
  ...new Set(Object.values(recipe.runs).flatMap((run) => [...Object.values(run.options).flat(), run.initial ?? ""].flatMap((v) => [...String(v).matchAll(/\{set:([^}]+)\}/g)].map((m) => m[1]!)))),
];

/** The built-in recipes: what each reproduces, its runs, and the rows that wait for what sqlmend lacks or a `--set`. */
export function recipesTable(recipes: Record<string, Recipe> = BUILT_IN_RECIPES): string {
  return [
    "| recipe | reproduces | runs | rows that wait |",
    "|---|---|---:|---|",
    ...Object.entries(recipes).map(([name, recipe]) => {
      const runs = Object.values(recipe.runs);
      const needs = runs.filter((r) => r.needs).length;
      const sets = setsOf(recipe);
      const waits = [needs ? `${needs} need a method sqlmend lacks` : "", sets.length ? sets.map((s) => `\`--set ${s}=FILE\``).join(", ") : ""].filter(Boolean).join("; ") || "–";
      return `| \`${name}\` | ${cell(recipe.reproduces ?? recipe.description ?? "")} | ${runs.length} | ${cell(waits)} |`;
    }),
  ].join("\n");
}

/** Every launcher command's usage as `--help` prints it (the command modules are thin: loading them all is cheap). */
const commandUsages = await Promise.all(commands.map(async (c) => ({ name: c.name, summary: c.summary, usage: (await c.load()).usage })));

/** docs/commands.md's reference: a section per command, its summary and its usage, flags included. */
export function commandsReference(): string {
  return commandUsages.map((c) => `### \`sqlmend ${c.name}\`\n\n${c.summary[0]!.toUpperCase()}${c.summary.slice(1)}.\n\n\`\`\`text\n${c.usage.trimEnd()}\n\`\`\`\n`).join("\n");
}

/** A region's body, from its marker's text (`options GRAPH...`, `recipes`). */
export function generatedRegion(spec: string): string {
  const [what, ...args] = spec.trim().split(/\s+/);
  const note = "<!-- made by `npx tsx scripts/docs.ts` from the declarations: do not edit by hand -->";
  if (what === "options") {
    if (!args.length) throw new Error("docs: a generated options region names no graph");
    return `${note}\n${optionsTable(args)}\n`;
  }
  if (what === "recipes") return `${note}\n${recipesTable()}\n`;
  if (what === "commands") return `${note}\n${commandsReference()}`;
  throw new Error(`docs: unknown generated region '${spec}' (options GRAPH..., recipes, commands)`);
}

/** A file's text with every region made anew. */
export function regenerate(text: string): string {
  return text.replace(REGION, (_all, open: string, spec: string, _body: string, close: string) => `${open}${generatedRegion(spec)}${close}`);
}

/** The regions a file holds, by their marker's text. */
export function regionsOf(text: string): string[] {
  return [...text.matchAll(REGION)].map((m) => m[2]!.trim());
}

/** Files (relative to `root`) whose regions differ from what the declarations make. */
export function staleDocs(root = DOCS_ROOT): string[] {
  return docFiles(root).filter((file) => {
    const text = fs.readFileSync(file, "utf8");
    return regenerate(text) !== text;
  }).map((file) => path.relative(root, file));
}

/** Rewrites every stale region; returns the files it changed (relative to `root`). */
export function writeDocs(root = DOCS_ROOT): string[] {
  const changed: string[] = [];
  for (const file of docFiles(root)) {
    const text = fs.readFileSync(file, "utf8");
    const made = regenerate(text);
    if (made !== text) {
      fs.writeFileSync(file, made);
      changed.push(path.relative(root, file));
    }
  }
  return changed;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const changed = writeDocs();
  console.log(changed.length ? `rewrote ${changed.join(", ")}` : "every generated region is current");
}
