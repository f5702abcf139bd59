import type { GraphInfo } from "./manifests/manifest.ts";
import { asGivenManifest, baselineManifest, repairManifest } from "./manifests/baseline.ts";
import { multiplePromptManifest, selfConsistencyManifest, selfDebuggingManifest } from "./manifests/correction-baselines.ts";
import { magicFeedbackManifest, magicGuidelineManifest, magicManifest } from "./manifests/magic.ts";
import { memoRefineManifest, memoSqlManifest } from "./manifests/memo.ts";
import { r3Manifest, r3ReviewManifest } from "./manifests/r3.ts";
import { tsSqlManifest, tsSqlRefineManifest } from "./manifests/ts-sql.ts";
import type { GraphManifest, GraphSpec } from "./spec.ts";
import type { OptionValue } from "../core/options.ts";

/** A manifest with its lazy loader: the spec module (LangGraph, the nodes) is imported only by `load()`. */
const entry = (manifest: GraphInfo, load: () => Promise<GraphSpec>): GraphManifest => ({ ...manifest, load });

/**
 * Every graph the launcher can run, described without loading any (no LangGraph): `graphs`, `--help`, flags and
 * their validation read these; `load()` imports a spec when a command builds its graph. A graph is registered here
 * only: the library's `graphSpecs` (graphs/index.ts) load these, and `npm run served` writes graphs/served.ts and
 * langgraph.json from them (test/served-graphs.test.ts fails while they lag).
 */
export const graphManifests: GraphManifest[] = [
  entry(baselineManifest, async () => (await import("./baseline.ts")).baselineSpec),
  entry(repairManifest, async () => (await import("./repair.ts")).repairSpec),
  entry(asGivenManifest, async () => (await import("./repair.ts")).asGivenSpec),
  entry(magicManifest, async () => (await import("./magic.ts")).magicSpec),
  entry(magicFeedbackManifest, async () => (await import("./magic-feedback.ts")).magicFeedbackSpec),
  entry(magicGuidelineManifest, async () => (await import("./magic-guideline.ts")).magicGuidelineSpec),
  entry(r3Manifest, async () => (await import("./r3.ts")).r3Spec),
  entry(r3ReviewManifest, async () => (await import("./r3.ts")).r3ReviewSpec),
  entry(memoSqlManifest, async () => (await import("./memo-sql.ts")).memoSqlSpec),
  entry(memoRefineManifest, async () => (await import("./memo-refine.ts")).memoRefineSpec),
  entry(tsSqlManifest, async () => (await import("./ts-sql.ts")).tsSqlSpec),
  entry(tsSqlRefineManifest, async () => (await import("./ts-sql.ts")).tsSqlRefineSpec),
  entry(selfDebuggingManifest, async () => (await import("./correction-baselines.ts")).selfDebuggingSpec),
  entry(selfConsistencyManifest, async () => (await import("./correction-baselines.ts")).selfConsistencySpec),
  entry(multiplePromptManifest, async () => (await import("./correction-baselines.ts")).multiplePromptSpec),
];

export function findManifest(name: string): GraphManifest | undefined {
  return graphManifests.find((manifest) => manifest.name === name);
}

/** The registry's entry for a graph that must exist (a command's own graph, e.g. `magic-feedback`). */
export function manifestOf(name: string): GraphManifest {
  const found = findManifest(name);
  if (!found) throw new Error(`no graph '${name}' in the registry`);
  return found;
}

/** The built-in manifests by name, with their declared types: what the run API's `graph` names and `options` are typed by. */
interface BuiltInManifests {
  baseline: typeof baselineManifest;
  repair: typeof repairManifest;
  "as-given": typeof asGivenManifest;
  magic: typeof magicManifest;
  "magic-feedback": typeof magicFeedbackManifest;
  "magic-guideline": typeof magicGuidelineManifest;
  r3: typeof r3Manifest;
  "r3-review": typeof r3ReviewManifest;
  "memo-sql": typeof memoSqlManifest;
  "memo-refine": typeof memoRefineManifest;
  "ts-sql": typeof tsSqlManifest;
  "ts-sql-refine": typeof tsSqlRefineManifest;
  "self-debugging": typeof selfDebuggingManifest;
  "self-consistency": typeof selfConsistencyManifest;
  "multiple-prompt": typeof multiplePromptManifest;
}
// Each key is its manifest's name (a renamed graph fails to compile here).
const _namesMatch: { [K in keyof BuiltInManifests]: BuiltInManifests[K]["name"] extends K ? true : never } = {
  baseline: true, repair: true, "as-given": true, magic: true, "magic-feedback": true, "magic-guideline": true, r3: true, "r3-review": true,
  "memo-sql": true, "memo-refine": true, "ts-sql": true, "ts-sql-refine": true, "self-debugging": true, "self-consistency": true, "multiple-prompt": true,
};
void _namesMatch;

/** A built-in graph's name (`runEval({ graph: "basline" })` does not compile). */
export type BuiltInGraphName = keyof BuiltInManifests;
type SlotOptionDefs<S> = { [K in keyof S]: S[K] extends { options: infer O } ? O : never }[keyof S];
type KeysOfUnion<U> = U extends unknown ? keyof U : never;
type DefOf<U, K extends PropertyKey> = U extends unknown ? (K extends keyof U ? U[K] : never) : never;
type GraphDefs<M> = M extends { options: infer O } ? O : never;
type AllDefs<G extends BuiltInGraphName> = GraphDefs<BuiltInManifests[G]> | SlotOptionDefs<BuiltInManifests[G]["slots"]>;

/** An option's value through the run API: as a node reads it, a list also as comma-separated text, never undefined. */
type ApiOptionValue<D> = D extends { type: "list" } ? readonly string[] | string : Exclude<OptionValue<D>, undefined>;

/** A built-in graph's own options (its graph-wide knobs and its slots' defaults'), camelCase, each optional and typed. */
export type GraphOptionsOf<G extends BuiltInGraphName> = { [K in KeysOfUnion<AllDefs<G>> & string]?: ApiOptionValue<DefOf<AllDefs<G>, K>> };
