import type { CallBounds, GraphInfo } from "./manifests/manifest.ts";
export type { CallBounds };
/** How a corrector's run gets its initial SQL, for `expectedCalls`. */
export interface InitialCalls {
    /** The generator graph that writes the initial SQL (its own calls count too), or its name; absent: a predictions file. */
    graph?: Graph | string;
    /** Its option values (camelCase keys), when they differ from the corrector's. */
    options?: Record<string, unknown>;
    /** eval's `--correct`: with `errors` or `incorrect` the corrector may not run at all (its min is then 0). */
    correct?: "all" | "errors" | "incorrect";
}
type Graph = Pick<GraphInfo, "name" | "calls" | "options">;
/**
 * Option values as a graph's `calls` reads them, from either spelling: camelCase keys with parsed values (as `build`
 * gets them) or flag names (`max-fix-rounds`, `--reviewers`) with values as a recipe or the command line gives them
 * ("3", "a,b"). Options any graph declares are parsed and checked as the launcher does (a bad value throws its UsageError);
 * `maxFixRounds` becomes a number; other keys pass through under their camelCase name.
 */
export declare function callOptions(graph: Pick<GraphInfo, "options">, options: Record<string, unknown>): Record<string, unknown>;
/**
 * Model calls per question a graph declares (`GraphInfo.calls`), or undefined when it declares none. `graph`: a
 * manifest, spec or registry entry, or a graph's name. `options`: the graph's own option values plus the shared knob
 * `maxFixRounds` — camelCase keys with parsed values as `build` gets them (`{ reviewers: 1, maxReviewTurns: 2 }`) or
 * flag names with raw values as a recipe holds them (`{ "max-review-turns": "2", "no-react": true }`), see
 * `callOptions`; absent keys take their defaults. For a corrector, `initial` adds the initial generator's calls (none from a predictions
 * file) and, under `--correct errors|incorrect`, lets the corrector's part go to 0.
 */
export declare function expectedCalls(graph: Graph | string, options?: Record<string, unknown>, initial?: InitialCalls): CallBounds | undefined;
