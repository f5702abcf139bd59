import { asGivenManifest, baselineManifest, repairManifest } from "./manifests/baseline.js";
import { multiplePromptManifest, selfConsistencyManifest, selfDebuggingManifest } from "./manifests/correction-baselines.js";
import { magicFeedbackManifest, magicGuidelineManifest, magicManifest } from "./manifests/magic.js";
import { memoRefineManifest, memoSqlManifest } from "./manifests/memo.js";
import { r3Manifest, r3ReviewManifest } from "./manifests/r3.js";
import { tsSqlManifest, tsSqlRefineManifest } from "./manifests/ts-sql.js";
/** A manifest with its lazy loader: the spec module (LangGraph, the nodes) is imported only by `load()`. */
const entry = (manifest, load) => ({ ...manifest, load });
/**
 * Every graph the launcher can run, described without loading any (no LangGraph): `graphs`, `--help`, flags and
 * their validation read these; `load()` imports a spec when a command builds its graph. A graph is registered here
 * only: the library's `graphSpecs` (graphs/index.ts) load these, and `npm run served` writes graphs/served.ts and
 * langgraph.json from them (test/served-graphs.test.ts fails while they lag).
 */
export const graphManifests = [
    entry(baselineManifest, async () => (await import("./baseline.js")).baselineSpec),
    entry(repairManifest, async () => (await import("./repair.js")).repairSpec),
    entry(asGivenManifest, async () => (await import("./repair.js")).asGivenSpec),
    entry(magicManifest, async () => (await import("./magic.js")).magicSpec),
    entry(magicFeedbackManifest, async () => (await import("./magic-feedback.js")).magicFeedbackSpec),
    entry(magicGuidelineManifest, async () => (await import("./magic-guideline.js")).magicGuidelineSpec),
    entry(r3Manifest, async () => (await import("./r3.js")).r3Spec),
    entry(r3ReviewManifest, async () => (await import("./r3.js")).r3ReviewSpec),
    entry(memoSqlManifest, async () => (await import("./memo-sql.js")).memoSqlSpec),
    entry(memoRefineManifest, async () => (await import("./memo-refine.js")).memoRefineSpec),
    entry(tsSqlManifest, async () => (await import("./ts-sql.js")).tsSqlSpec),
    entry(tsSqlRefineManifest, async () => (await import("./ts-sql.js")).tsSqlRefineSpec),
    entry(selfDebuggingManifest, async () => (await import("./correction-baselines.js")).selfDebuggingSpec),
    entry(selfConsistencyManifest, async () => (await import("./correction-baselines.js")).selfConsistencySpec),
    entry(multiplePromptManifest, async () => (await import("./correction-baselines.js")).multiplePromptSpec),
];
export function findManifest(name) {
    return graphManifests.find((manifest) => manifest.name === name);
}
/** The registry's entry for a graph that must exist (a command's own graph, e.g. `magic-feedback`). */
export function manifestOf(name) {
    const found = findManifest(name);
    if (!found)
        throw new Error(`no graph '${name}' in the registry`);
    return found;
}
