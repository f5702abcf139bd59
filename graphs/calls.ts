import type { CallBounds, GraphInfo } from "./manifests/manifest.ts";
import { findManifest } from "./registry.ts";

export type { CallBounds };

/** How a corrector's run gets its initial SQL, for `expectedCalls`. */
export interface InitialCalls {
  /** The generator graph that writes the initial SQL (its own calls count too), or its name; absent: a predictions file. */
  graph?: Pick<GraphInfo, "name" | "calls"> | string;
  /** Its option values (camelCase keys), when they differ from the corrector's. */
  options?: Record<string, unknown>;
  /** eval's `--correct`: with `errors` or `incorrect` the corrector may not run at all (its min is then 0). */
  correct?: "all" | "errors" | "incorrect";
}

const graphOf = (graph: Pick<GraphInfo, "name" | "calls"> | string) => {
  const found = typeof graph === "string" ? findManifest(graph) : graph;
  if (!found) throw new Error(`no graph '${String(graph)}' in the registry`);
  return found;
};

/** A declaration that breaks its own contract is a bug in the manifest, said in one line. */
function checked(name: string, bounds: CallBounds): CallBounds {
  const { min, max, typical } = bounds;
  const ok = [min, max, typical ?? min].every((n) => Number.isInteger(n) && n >= 0) && min <= max && (typical === undefined || (min <= typical && typical <= max));
  if (!ok) throw new Error(`graph '${name}' declares impossible call bounds: ${JSON.stringify(bounds)}`);
  return bounds;
}

/**
 * Model calls per question a graph declares (`GraphInfo.calls`), or undefined when it declares none. `graph`: a
 * manifest, spec or registry entry, or a graph's name. `options`: the graph's own option values under their camelCase
 * keys as `build` gets them (e.g. `{ reviewers: 1, maxReviewTurns: 2 }`; absent keys take their defaults) plus the
 * shared knob `maxFixRounds`. For a corrector, `initial` adds the initial generator's calls (none from a predictions
 * file) and, under `--correct errors|incorrect`, lets the corrector's part go to 0.
 */
export function expectedCalls(
  graph: Pick<GraphInfo, "name" | "calls"> | string,
  options: Record<string, unknown> = {},
  initial?: InitialCalls,
): CallBounds | undefined {
  const info = graphOf(graph);
  if (!info.calls) return undefined;
  const own = checked(info.name, info.calls(options));
  if (!initial) return own;
  const skippable = initial.correct === "errors" || initial.correct === "incorrect";
  const corrector: CallBounds = skippable ? { ...own, min: 0 } : own;
  if (!initial.graph) return corrector;
  const generator = graphOf(initial.graph);
  if (!generator.calls) return undefined;
  const first = checked(generator.name, generator.calls(initial.options ?? options));
  const typical = first.typical !== undefined && corrector.typical !== undefined ? { typical: first.typical + corrector.typical } : {};
  const note = [first.note && `${generator.name}: ${first.note}`, corrector.note && `${info.name}: ${corrector.note}`].filter(Boolean).join("; ");
  return { min: first.min + corrector.min, max: first.max + corrector.max, ...typical, ...(note ? { note } : {}) };
}
