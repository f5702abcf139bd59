import { parseOption } from "../core/options.js";
import { findManifest, graphManifests } from "./registry.js";
const camel = (key) => key.replace(/^-+/, "").replace(/-([a-z0-9])/g, (_, c) => c.toUpperCase());
/**
 * Option values as a graph's `calls` reads them, from either spelling: camelCase keys with parsed values (as `build`
 * gets them) or flag names (`max-fix-rounds`, `--reviewers`) with values as a recipe or the command line gives them
 * ("3", "a,b"). Options any graph declares are parsed and checked as the launcher does (a bad value throws its UsageError);
 * `maxFixRounds` becomes a number; other keys pass through under their camelCase name.
 */
export function callOptions(graph, options) {
    const out = {};
    for (const [raw, value] of Object.entries(options)) {
        const key = camel(raw);
        // An option another graph declares is parsed by its declaration (magic-guideline's merge reads magic-feedback's).
        const def = graph.options?.[key] ?? graphManifests.find((m) => m.options?.[key])?.options?.[key];
        if (def && value !== undefined && !(def.type === "list" && Array.isArray(value)))
            out[key] = parseOption(key, def, value);
        else if (key === "maxFixRounds" && typeof value === "string")
            out[key] = Number(value);
        else
            out[key] = value;
    }
    return out;
}
const graphOf = (graph) => {
    const found = typeof graph === "string" ? findManifest(graph) : graph;
    if (!found)
        throw new Error(`no graph '${String(graph)}' in the registry`);
    return found;
};
const boundsOf = (graph, options) => {
    if (!graph.calls)
        return undefined;
    return checked(graph.name, graph.calls(callOptions(graph, options)));
};
/** A declaration that breaks its own contract is a bug in the manifest, said in one line. */
function checked(name, bounds) {
    const { min, max, typical } = bounds;
    const ok = [min, max, typical ?? min].every((n) => Number.isInteger(n) && n >= 0) && min <= max && (typical === undefined || (min <= typical && typical <= max));
    if (!ok)
        throw new Error(`graph '${name}' declares impossible call bounds: ${JSON.stringify(bounds)}`);
    return bounds;
}
/**
 * Model calls per question a graph declares (`GraphInfo.calls`), or undefined when it declares none. `graph`: a
 * manifest, spec or registry entry, or a graph's name. `options`: the graph's own option values plus the shared knob
 * `maxFixRounds` — camelCase keys with parsed values as `build` gets them (`{ reviewers: 1, maxReviewTurns: 2 }`) or
 * flag names with raw values as a recipe holds them (`{ "max-review-turns": "2", "no-react": true }`), see
 * `callOptions`; absent keys take their defaults. For a corrector, `initial` adds the initial generator's calls (none from a predictions
 * file) and, under `--correct errors|incorrect`, lets the corrector's part go to 0.
 */
export function expectedCalls(graph, options = {}, initial) {
    const info = graphOf(graph);
    const own = boundsOf(info, options);
    if (!own || !initial)
        return own;
    const skippable = initial.correct === "errors" || initial.correct === "incorrect";
    const corrector = skippable ? { ...own, min: 0 } : own;
    if (!initial.graph)
        return corrector;
    const generator = graphOf(initial.graph);
    const first = boundsOf(generator, initial.options ?? options);
    if (!first)
        return undefined;
    const typical = first.typical !== undefined && corrector.typical !== undefined ? { typical: first.typical + corrector.typical } : {};
    const note = [first.note && `${generator.name}: ${first.note}`, corrector.note && `${info.name}: ${corrector.note}`].filter(Boolean).join("; ");
    return { min: first.min + corrector.min, max: first.max + corrector.max, ...typical, ...(note ? { note } : {}) };
}
