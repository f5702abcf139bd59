import type { GraphManifest } from "../spec.ts";
import { baselineManifest, repairManifest } from "./baseline.ts";
import { magicFeedbackManifest, magicGuidelineManifest, magicManifest } from "./magic.ts";
import { memoRefineManifest, memoSqlManifest } from "./memo.ts";
import { r3Manifest, r3ReviewManifest } from "./r3.ts";
import { tsSqlManifest, tsSqlRefineManifest } from "./ts-sql.ts";

/**
 * Every graph the launcher can run, described without loading any (no LangGraph): `graphs`, `--help`, flags and
 * their validation read these; `load()` imports a spec when a command builds its graph. Same order as `graphSpecs`.
 */
export const graphManifests: GraphManifest[] = [
  baselineManifest,
  repairManifest,
  magicManifest,
  magicFeedbackManifest,
  magicGuidelineManifest,
  r3Manifest,
  r3ReviewManifest,
  memoSqlManifest,
  memoRefineManifest,
  tsSqlManifest,
  tsSqlRefineManifest,
];

export function findManifest(name: string): GraphManifest | undefined {
  return graphManifests.find((manifest) => manifest.name === name);
}
