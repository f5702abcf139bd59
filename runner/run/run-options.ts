import { findManifest, graphManifests } from "../../graphs/registry.ts";
import type { GraphInfo, GraphManifest, GraphSpec } from "../../graphs/spec.ts";
import type { GraphOptions } from "../../nodes/types.ts";
import { optionDefsOf } from "../../graphs/manifests/manifest.ts";
import { UsageError, UserError } from "../../core/errors.ts";
import type { CorrectScenario } from "./question-thread.ts";
export type { CorrectScenario };
import { flagOf, type OptionDefs, optionFlags, parseOption } from "../../core/options.ts";
import { graphOpt, opt, type OptionText, optionText, optionUsageError, optionUserError } from "../../core/config.ts";
import { type RunConfig, RUN_OPTION_KEYS } from "./run-config.ts";
import { RunModules, moduleOptions } from "./user-modules.ts";

// The graph a run names and its own options: found by manifest, checked, parsed from a recipe's or a launcher's flags,
// and which graphs of the run read which. Everything here runs before a graph is built (option checks, --help), so
// this module and its imports load no LangGraph or LangChain.

/** The graph's shared knobs of a run's typed config, as the nodes read them. */
export function graphOptionsFrom(config: RunConfig): GraphOptions {
  return { maxFixRounds: config.maxFixRounds, fewShot: config.fewShot, schemaMaxChars: config.schemaMaxChars, timeoutMs: config.queryTimeoutMs };
}

/** parseArgs declarations for every graph's own options (its slots' included), so any graph's flags parse (and can be checked per graph), plus those the run's own modules declare. */
export const graphFlags = (modules?: RunModules) =>
  optionFlags([...graphManifests.map((graph) => optionDefsOf(graph)), ...(modules ? [moduleOptions(modules), modules.graph ? optionDefsOf(modules.graph.spec) : {}] : [])]);

/** Every graph's own options by name (its slots' included), and the run's modules': what options forwarded to many runs may name. */
export const allGraphOptionDefs = (modules?: RunModules): OptionDefs =>
  Object.assign({}, ...graphManifests.map((graph) => optionDefsOf(graph)), ...(modules ? [moduleOptions(modules), modules.graph ? optionDefsOf(modules.graph.spec) : {}] : []));

/**
 * The graph a run names — a built-in by name, or `--graph FILE` — as the run sees it: its options are the graph's,
 * its slots' (but not a replaced slot's: a `--node` replacement does not read them) and the replacement modules'.
 */
export function runGraph(name: string | undefined, modules: RunModules): GraphManifest {
  let base: GraphManifest;
  if (modules.graph) {
    if (name) throw optionUsageError`name a graph or give ${opt("graph")} ${modules.graph.module}, not both`;
    const spec = modules.graph.spec;
    base = { ...spec, load: async () => spec };
  } else {
    base = requireGraph(name);
  }
  const replaced = Object.keys(modules.nodes);
  for (const slot of replaced) {
    if (!base.slots[slot]) throw new UserError(`graph '${base.name}' has no slot '${slot}' (slots: ${Object.keys(base.slots).join(", ")})`);
  }
  const extra = moduleOptions(modules);
  const own = optionDefsOf(base);
  for (const key of Object.keys(extra)) {
    if (own[key] || SHARED_OPTION_FLAGS.has(flagOf(key))) throw optionUserError`${opt("node")} module option ${opt(key)} is already an option of the run; name it otherwise`;
  }
  if (!replaced.length && !Object.keys(extra).length) return base;
  // A replaced slot's own options go (its default, which read them, does not run); the modules' join the graph's.
  const options = { ...base.options, ...extra };
  const withoutOptions = <T extends { options?: OptionDefs }>(slots: Record<string, T>) =>
    Object.fromEntries(Object.entries(slots).map(([slot, info]) => [slot, replaced.includes(slot) ? { ...info, options: undefined } : info]));
  return { ...base, options, slots: withoutOptions(base.slots), load: async () => {
    const spec = await base.load();
    return { ...spec, options, slots: withoutOptions(spec.slots) } as GraphSpec;
  } };
}

const SHARED_OPTION_FLAGS = new Set(RUN_OPTION_KEYS.map(flagOf));

/**
 * The values of `spec`'s declared options given on the command line (defaults are the nodes' business, via
 * readOptions). A flag that only other graphs declare is refused, naming them, unless `alsoAllowed` (the initial
 * generator of a corrector run) declares it.
 */
export function declaredOptionsFrom(spec: GraphInfo, values: Record<string, unknown>, alsoAllowed: GraphInfo[] = []): Record<string, unknown> {
  const mine = new Set([spec, ...alsoAllowed].flatMap((g) => Object.keys(optionDefsOf(g)).map(flagOf)));
  for (const other of graphManifests) {
    for (const key of Object.keys(optionDefsOf(other))) {
      const flag = flagOf(key);
      if (values[flag] !== undefined && !mine.has(flag)) {
        const replacedSlot = other.name === spec.name ? Object.entries(other.slots).find(([, info]) => info.options?.[key]) : undefined;
        if (replacedSlot) throw new UsageError(`--${flag} is read by slot '${replacedSlot[0]}' of ${spec.name}, which --node replaces: drop it`);
        const owners = graphManifests.filter((g) => Object.keys(optionDefsOf(g)).some((k) => flagOf(k) === flag)).map((g) => g.name);
        throw new UsageError(`--${flag} is an option of ${owners.join(", ")}, not of ${[spec, ...alsoAllowed].map((g) => g.name).join(" or ")}`);
      }
    }
  }
  return parseDeclared(spec, values);
}

/** The options `graphs` declare among flag values, parsed: for the commands that still read flag values (magic guideline). */
export function graphOptionsOfValues(graphs: GraphInfo[], values: Record<string, unknown>): Record<string, unknown> {
  return Object.assign({}, ...graphs.map((graph) => parseDeclared(graph, values)));
}

/** The graph's declared options given on the command line, parsed and checked (absent when not given). */
function parseDeclared(spec: GraphInfo, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, def] of Object.entries(optionDefsOf(spec))) {
    const value = parseOption(key, def, values[flagOf(key)]);
    if (value === undefined && def.type === "string" && def.required) throw new UsageError(`${spec.name} needs --${flagOf(key)} ${def.metavar ?? "VALUE"}`);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/**
 * The launcher's flags of the graph's own options (and a corrector's initial generator's), parsed by their declarations
 * into the typed record the run takes (`{ kShot: 5 }`); a flag only other graphs declare is refused, naming them.
 */
export function graphOptionsOf(spec: GraphInfo, values: Record<string, unknown>): Record<string, unknown> {
  const graphs = graphsOfRun(spec, typeof values.initial === "string" ? values.initial : undefined);
  const options = Object.assign({}, ...graphs.map((g, i) => (i === 0 ? declaredOptionsFrom(g, values, graphs.slice(1)) : parseDeclared(g, values))));
  checkRunGraphOptions(spec, { fewShot: values["few-shot"], maxFixRounds: values["max-fix-rounds"], initial: values.initial as string | undefined }, options);
  return options;
}

/**
 * The checks of a run's graph options that no one option's declaration makes: the shared knobs act through shared
 * slots (a run none of whose graphs has that slot would ignore them silently), and a required option is given.
 */
export function checkRunGraphOptions(spec: GraphInfo, config: { fewShot?: unknown; maxFixRounds?: unknown; initial?: string | undefined }, graphOptions: Record<string, unknown>): void {
  const graphs = graphsOfRun(spec, config.initial);
  for (const [key, slot] of [["fewShot", "generate"], ["maxFixRounds", "fix"]] as const) {
    if (config[key] !== undefined && !graphs.some((g) => g.slots[slot])) {
      throw optionUsageError`${opt(key)} applies to graphs with a '${slot}' slot, not ${graphs.map((g) => g.name).join(" or ")} (see its own options: sqlmend eval ${spec.name} --help)`;
    }
  }
  for (const [key, def] of Object.entries(optionDefsOf(spec))) {
    if (def.type === "string" && def.required && graphOptions[key] === undefined) throw optionUsageError`${spec.name} needs ${graphOpt(key)} ${def.metavar ?? "VALUE"}`;
  }
}

/** The options of `graph` among a run's typed graph options (the run's record holds its initial generator's too). */
export function optionsOfGraph(graph: GraphInfo, graphOptions: Record<string, unknown>): Record<string, unknown> {
  const declared = optionDefsOf(graph);
  return Object.fromEntries(Object.entries(graphOptions).filter(([key, value]) => key in declared && value !== undefined));
}

/** Every option the run's graphs declare (the graph's, a corrector's initial generator's): what a script's `options` may name. */
export function runOptionDefs(spec: GraphInfo, initial: string | undefined): OptionDefs {
  return Object.assign({}, ...graphsOfRun(spec, initial).reverse().map((g) => optionDefsOf(g)));
}

/** The graphs whose options shape a run: the graph, and a corrector's initial generator when `initial` names one. */
export function graphsOfRun(spec: GraphInfo, initial: string | undefined): GraphInfo[] {
  const generator = spec.kind === "corrector" ? findManifest(initial ?? "baseline") : undefined;
  return generator ? [spec, generator] : [spec];
}

/**
 * Why this run needs the training split's examples, or undefined: `fewShot` K, or a graph of the run (the graph,
 * and a corrector's initial generator) whose `needsExamples` says so for its options (e.g. r3's `--k-shot`).
 */
export function examplesWantedBy(spec: GraphInfo, config: Pick<RunConfig, "fewShot" | "initial">, graphOptions: Record<string, unknown>): OptionText | string | undefined {
  if ((config.fewShot ?? 0) > 0) return optionText`${opt("fewShot")} ${config.fewShot}`;
  for (const graph of graphsOfRun(spec, config.initial)) {
    const reason = graph.needsExamples?.(optionsOfGraph(graph, graphOptions));
    if (reason) return reason;
  }
  return undefined;
}

export function requireGraph(name: string | undefined): GraphManifest {
  if (!name) throw new UsageError("name a graph (see 'sqlmend graphs')");
  const spec = findManifest(name);
  if (!spec) throw new UserError(`unknown graph '${name}' (graphs: ${graphManifests.map((g) => g.name).join(", ")})`);
  // Its inputs (gold SQL, a batch of feedbacks, ...) come from that command: ask or eval would fail every question.
  if (spec.runBy) throw new UserError(`graph '${name}' is run by '${spec.runBy}', not by ask or eval`);
  return spec;
}

export function scenarioFrom(correct: CorrectScenario | undefined, allowOracle: boolean): CorrectScenario {
  const scenario = correct ?? "all";
  if (scenario === "incorrect" && !allowOracle) throw optionUsageError`${opt("correct")} incorrect needs gold SQL as an oracle: use it with 'eval'`;
  return scenario;
}
