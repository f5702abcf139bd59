/**
 * The slot reference, generated from the graphs' declarations (`graphs/manifests/`): `npx tsx scripts/slot-reference.ts`
 * writes docs/guides/slots.md, and test/slot-types.generated.ts, which makes `tsc` prove that every factory type the
 * reference names is exported by the package and fits its slot. test/graph-manifests.test.ts fails when either file
 * differs from what this script makes, so the reference never rots.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { optionsUsage, type OptionDefs } from "../core/options.ts";
import type { GraphInfo, SlotInfo } from "../graphs/manifests/manifest.ts";
import { SHARED_SLOT_INFO, SQL_STATE } from "../graphs/manifests/shared.ts";
import { graphManifests } from "../graphs/registry.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
export const SLOT_REFERENCE_FILE = path.join(ROOT, "docs/guides/slots.md");
export const SLOT_TYPES_FILE = path.join(ROOT, "test/slot-types.generated.ts");

/** The state field objects the package exports, for a new graph to compose (`new StateSchema({ ...sqlStateFields, ... })`). */
const STATE_FIELDS = ["sqlStateFields", "r3StateFields", "memoStateFields", "tsSqlStateFields", "magicFields", "magicFeedbackFields", "magicGuidelineFields", "votingStateFields", "selfDebuggingStateFields"];

/** Fields any node may write besides its declared ones (as `checkedNode` allows). */
const ALWAYS_WRITABLE = ["calls", "usage", "attempts"];

/** A shared node's slot (the same declaration object in every graph that wires it): typed over the shared state. */
const isShared = (slot: string, info: SlotInfo): boolean => (SHARED_SLOT_INFO as Record<string, SlotInfo>)[slot] === info;

/** The spec a graph's module exports, by the registry's naming (`ts-sql-refine` → `tsSqlRefineSpec`). */
const specName = (graph: string): string => `${graph.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Spec`;

function stateTypeOf(graph: GraphInfo): { value: string; update: string } {
  if (!graph.stateType) throw new Error(`graph '${graph.name}' declares no stateType: the slot reference cannot name its state's types`);
  return graph.stateType;
}

/** What a replacement for the slot must be: its input (the payload, or the state) and what it returns. */
export function factoryTypeOf(graph: GraphInfo, slot: string, info: SlotInfo): string {
  const state = isShared(slot, info) ? SQL_STATE : stateTypeOf(graph);
  const input = info.payload ?? state.value;
  const output = info.returns === "Command" ? "Command" : `${state.update} | Command`;
  return `NodeFactory<${input}, ${output}>`;
}

const list = (items: readonly string[] | undefined): string => (items?.length ? items.map((i) => `\`${i}\``).join(", ") : "–");

const optionsBlock = (title: string, defs: OptionDefs | undefined): string[] => {
  const text = optionsUsage(title, defs);
  return text ? ["```text", text, "```"] : [`${title}: none`];
};

function slotSection(graph: GraphInfo, slot: string, info: SlotInfo): string[] {
  const routes = info.returns === "Command" ? `a Command routing to ${list(info.routesTo)}` : "an update (an object of state fields), or a Command";
  const input = info.payload
    ? `the \`Send\` payload \`${info.payload}\` (not the graph's state)`
    : isShared(slot, info)
      ? "the graph's state, typed as the shared fields (`SqlStateValue`)"
      : `the graph's state (\`${stateTypeOf(graph).value}\`)`;
  const lines = [
    `#### \`${slot}\` — ${info.summary}`,
    "",
    `- factory: \`${factoryTypeOf(graph, slot, info)}\`${isShared(slot, info) ? " (a shared node, `graphs/slots.ts`)" : ""}`,
    `- given: ${input}`,
    `- role: ${info.role ? `\`${info.role}\`` : "– (no model call)"}`,
    `- reads: ${list(info.reads)}`,
    `- writes: ${list(info.writes)}`,
    `- requires: ${list(info.requires)}`,
    `- returns: ${routes}`,
  ];
  if (info.options && Object.keys(info.options).length) lines.push("- options (the slot's own: dropped when it is replaced):", "", ...optionsBlock("  options", info.options).map((l) => `  ${l}`));
  return [...lines, ""];
}

function graphSection(graph: GraphInfo): string[] {
  const state = stateTypeOf(graph);
  return [
    `## ${graph.name}`,
    "",
    graph.summary,
    "",
    `- kind: ${graph.kind}${graph.runBy ? ` (run by \`${graph.runBy}\`)` : ""}`,
    `- state: \`${state.value}\` (updates: \`${state.update}\`); spec \`${specName(graph.name)}\`, so a slot's factory type is also \`SlotFactory<typeof ${specName(graph.name)}, "SLOT">\``,
    "",
    ...optionsBlock("Graph-wide options", graph.options),
    "",
    ...Object.entries(graph.slots).flatMap(([slot, info]) => slotSection(graph, slot, info)),
  ];
}

/** docs/guides/slots.md: every graph's slots as declared, with the factory type a replacement must have. */
export function slotReference(graphs: GraphInfo[] = graphManifests): string {
  const slots = graphs.reduce((n, g) => n + Object.keys(g.slots).length, 0);
  const lines = [
    "# Slot reference",
    "",
    "<!-- Generated by `npx tsx scripts/slot-reference.ts` from graphs/manifests/: do not edit by hand (test/graph-manifests.test.ts fails when it differs). -->",
    "",
    `Every slot of every graph (${graphs.length} graphs, ${slots} slots), as its manifest declares it. A slot is a node you can`,
    "replace: `--node SLOT=FILE` on the command line (the module default-exports the factory), or",
    "`spec.build(deps, { slots: { SLOT: factory } })` in code. A factory is `(deps, options) => async (input) => update`:",
    "",
    "- **factory**: the type a replacement must have. Import the types from the package (`import type { NodeFactory,",
    '  TsSqlStateValue, TsSqlStateUpdate } from "sqlmend"`) and `Command` from `@langchain/langgraph`.',
    "- **given**: what the node is called with: the graph's state, or, for a slot run by a `Send` fan-out, that `Send`'s payload.",
    "- **role**: the agent role its model calls name (`--role-model ROLE=...`); the default node calls no other (embedding",
    "  requests, role `embedder`, aside).",
    "- **reads**: the fields of its input the default node reads.",
    `- **writes**: the state fields the default node writes, besides ${list(ALWAYS_WRITABLE)} (any node may write those).`,
    "  A replacement may write any field of its graph's state; a field the state lacks stops the question with an error",
    "  naming it (LangGraph would drop it silently).",
    "- **requires**: keys its update must always hold (the graph's routes read them).",
    "- **returns**: a plain update, or a `Command` (`new Command({ update, goto })`) where the slot routes itself.",
    "",
    "A replacement that breaks its slot's contract stops its question with one line naming the slot. A new graph composes",
    `its state from the exported field objects: ${list(STATE_FIELDS)}.`,
    "",
    "| graph | kind | state | slots |",
    "|---|---|---|---|",
    ...graphs.map((g) => `| [${g.name}](#${g.name}) | ${g.kind} | \`${stateTypeOf(g).value}\` | ${Object.keys(g.slots).join(", ")} |`),
    "",
    ...graphs.flatMap(graphSection),
  ];
  return `${lines.join("\n").trimEnd()}\n`;
}

/**
 * test/slot-types.generated.ts: for every slot, the factory type the reference names must fit the slot's factory
 * type (`SlotFactory`), its parts imported from the package's entry. `tsc --noEmit` checks it.
 */
export function slotTypeChecks(graphs: GraphInfo[] = graphManifests): string {
  const checks = graphs.flatMap((g) =>
    Object.entries(g.slots).flatMap(([slot, info]) => [
      `  "${g.name} ${slot}": Assert<Fits<${factoryTypeOf(g, slot, info)}, SlotFactory<typeof ${specName(g.name)}, "${slot}">>>;`,
      // A payload's fields are its type's: the reads must name them (a state's are checked against its fields at run time).
      ...(info.payload && info.reads?.length ? [`  "${g.name} ${slot} reads": Assert<Fits<${info.reads.map((r) => `"${r}"`).join(" | ")}, keyof ${info.payload}>>;`] : []),
    ]),
  );
  const names = new Set<string>(["NodeFactory", "SlotFactory", ...STATE_FIELDS]);
  for (const g of graphs) {
    names.add(specName(g.name));
    for (const [slot, info] of Object.entries(g.slots)) {
      const state = isShared(slot, info) ? SQL_STATE : stateTypeOf(g);
      names.add(info.payload ?? state.value);
      if (info.returns !== "Command") names.add(state.update);
    }
  }
  return [
    "// Generated by `npx tsx scripts/slot-reference.ts`: do not edit. `tsc --noEmit` proves that every factory type",
    "// docs/guides/slots.md names is exported by the package and fits its slot (a replacement typed so compiles), and",
    "// that a Send-run slot's reads are fields of its payload.",
    'import type { Command } from "@langchain/langgraph";',
    `import type { ${[...names].sort().join(", ")} } from "../index.ts";`,
    "",
    "type Fits<Documented, Slot> = [Documented] extends [Slot] ? true : false;",
    "type Assert<T extends true> = T;",
    "",
    "export interface SlotTypesFit {",
    ...checks,
    "}",
    "",
    `export type StateFields = [${STATE_FIELDS.map((f) => `typeof ${f}`).join(", ")}];`,
    "",
  ].join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  fs.mkdirSync(path.dirname(SLOT_REFERENCE_FILE), { recursive: true });
  fs.writeFileSync(SLOT_REFERENCE_FILE, slotReference());
  fs.writeFileSync(SLOT_TYPES_FILE, slotTypeChecks());
  console.log(`wrote ${path.relative(ROOT, SLOT_REFERENCE_FILE)} and ${path.relative(ROOT, SLOT_TYPES_FILE)}`);
}
