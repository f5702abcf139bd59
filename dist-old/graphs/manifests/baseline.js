import { defineOptions, readOptions } from "../../core/options.js";
import { defineManifest } from "./manifest.js";
import { maxFixRoundsOf, SHARED_SLOT_INFO as SHARED, SQL_STATE, STRUCTURED_CALLS } from "./shared.js";
/** The baseline's own knobs (flags `--link`, ...). */
export const baselineOptions = defineOptions({
    link: {
        type: "boolean",
        default: false,
        help: "link the question to columns and stored values first (slot link, role linker); the schema shows the matches",
    },
});
export const baselineManifest = defineManifest({
    name: "baseline",
    summary: "generate SQL (zero- or few-shot), execute, fix execution errors up to N times",
    kind: "generator",
    stateType: SQL_STATE,
    options: baselineOptions,
    slots: { link: SHARED.link, schema: SHARED.schema, generate: SHARED.generate, execute: SHARED.execute, fix: SHARED.fix },
    // [link: one structured ask] → generate: 1 → (fix: 1 → execute)* while the SQL fails, at most maxFixRounds.
    calls: (options) => {
        const link = readOptions(baselineOptions, options).link ? STRUCTURED_CALLS : { min: 0, max: 0 };
        return { min: link.min + 1, max: link.max + 1 + maxFixRoundsOf(options), typical: link.min + 1 };
    },
});
export const repairManifest = defineManifest({
    name: "repair",
    summary: "corrector: execute the given SQL and fix execution errors up to N times",
    kind: "corrector",
    stateType: SQL_STATE,
    slots: { schema: SHARED.schema, execute: SHARED.execute, fix: SHARED.fix },
    // No call when the given SQL executes; one fix per failed execution, at most maxFixRounds.
    calls: (options) => ({ min: 0, max: maxFixRoundsOf(options) }),
});
export const asGivenManifest = defineManifest({
    name: "as-given",
    summary: "corrector that changes nothing: executes the given SQL, so another system's predictions are scored, reported and compared like any run",
    kind: "corrector",
    stateType: SQL_STATE,
    slots: { execute: SHARED.execute },
    // Nothing asks a model.
    calls: () => ({ min: 0, max: 0, typical: 0 }),
});
