import type { GraphInfo } from "./manifests/manifest.ts";
import { asGivenManifest, baselineManifest, repairManifest } from "./manifests/baseline.ts";
import { multiplePromptManifest, selfConsistencyManifest, selfDebuggingManifest } from "./manifests/correction-baselines.ts";
import { magicFeedbackManifest, magicGuidelineManifest, magicManifest } from "./manifests/magic.ts";
import { memoRefineManifest, memoSqlManifest } from "./manifests/memo.ts";
import { r3Manifest, r3ReviewManifest } from "./manifests/r3.ts";
import { tsSqlManifest, tsSqlRefineManifest } from "./manifests/ts-sql.ts";
import type { GraphManifest, GraphSpec } from "./spec.ts";

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
