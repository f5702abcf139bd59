import { MAX_SQL_REASKS, R3_LOOP_OPTIONS, R3_OPTIONS } from "../../nodes/r3/options.js";
import { readOptions } from "../../core/options.js";
import { defineManifest } from "./manifest.js";
import { SHARED_SLOT_INFO as SHARED, STRUCTURED_CALLS } from "./shared.js";
/**
 * R³'s calls per question. A writer turn (write, debug, revise) is one call, or up to 1 + MAX_SQL_REASKS when its
 * reply holds no SQL. write → (debug)* up to maxDebugTurns while the SQL fails → persona (one structured ask, and a
 * second for the reviewers it still lacks; once) → per round: n reviews (Send) → revise → when revised, execute →
 * (debug)* again; up to maxReviewTurns rounds. The
 * shortest: the reviewers agree and the writer keeps its SQL in round 1. With no reviewers: write and debug only.
 */
const r3Calls = (writes) => (options) => {
    const o = readOptions(R3_LOOP_OPTIONS, options);
    const turn = 1 + MAX_SQL_REASKS;
    const write = writes ? { min: 1, max: turn } : { min: 0, max: 0 };
    const debug = o.maxDebugTurns * turn;
    if (o.reviewers === 0)
        return { min: write.min, max: write.max + debug };
    const round = o.reviewers + turn + debug;
    return { min: write.min + STRUCTURED_CALLS.min + o.reviewers + 1, max: write.max + debug + 2 * STRUCTURED_CALLS.max + o.maxReviewTurns * round };
};
/** What every writer turn reads (`askWriter`): its history H, rebuilt around the opening turn. */
const WRITER_READS = ["question", "evidence", "schemaText", "shots", "history", "sql", "rounds", "writerReasks"];
/** R³'s agents as slots (after `schema`); `write` only in the generator. */
const LOOP_SLOTS = {
    execute: SHARED.execute,
    debug: {
        summary: "the writer rewrites SQL that failed to execute, the error appended to its history",
        role: "writer",
        reads: [...WRITER_READS, "execution", "fixRounds", "roundDebugTurns"],
        writes: ["history", "sql", "fixRounds", "roundDebugTurns", "writerReasks"],
        requires: ["fixRounds", "roundDebugTurns"],
    },
    persona: {
        summary: "n reviewer professions suited to the schema and SQL, once per question",
        role: "persona",
        reads: ["schemaText", "question", "evidence", "sql"],
        writes: ["personas", "personasStandby", "personasDropped"],
        requires: ["personas"],
    },
    review: {
        summary: "one reviewer, in its persona, reviews the SQL and its result table; n run in parallel (a Send each)",
        role: "reviewer",
        payload: "ReviewPayload",
        reads: ["reviewerIndex", "personas", "rounds", "schemaText", "question", "evidence", "sql", "execution"],
        writes: ["reviews"],
        requires: ["reviews"],
    },
    revise: {
        summary: "the writer reads the round's reviews and revises, or rebuts and keeps its SQL",
        role: "writer",
        reads: [...WRITER_READS, "reviews", "dbPath", "descriptionDir"],
        writes: ["roundLog", "consensus", "sql", "rounds", "roundDebugTurns", "writerReasks", "history"],
        requires: ["rounds", "roundLog"],
    },
    finish: { summary: "records why the loop stopped", reads: ["roundLog", "rounds", "sql"], writes: ["stopReason", "stopKind"], requires: ["stopReason"] },
};
const R3_STATE = { value: "R3StateValue", update: "R3StateUpdate" };
export const r3Manifest = defineManifest({
    name: "r3",
    summary: "R³: a SQL writer with memory and n generated reviewer personas review, rebut and revise until consensus",
    kind: "generator",
    stateType: R3_STATE,
    slots: {
        schema: SHARED.schema,
        write: {
            summary: "the writer's first SQL, with k similar training examples",
            role: "writer",
            // Its shots are its own retrieval's (by question and dbId), not read from the state.
            reads: ["question", "evidence", "dbId", "schemaText", "history", "sql", "rounds", "writerReasks"],
            writes: ["shots", "shotsRanking", "shotsPool", "history", "writerReasks", "sql"],
        },
        ...LOOP_SLOTS,
    },
    options: R3_OPTIONS,
    needsExamples: (options) => {
        const k = readOptions(R3_OPTIONS, options).kShot;
        return k > 0 ? `r3 --k-shot ${k}${options.kShot === undefined ? " (the default; --k-shot 0 for zero-shot)" : ""}` : undefined;
    },
    calls: r3Calls(true),
});
export const r3ReviewManifest = defineManifest({
    name: "r3-review",
    summary: "corrector: R³'s review loop (debug, personas, n reviewers, rebuttal or revision) on the given SQL",
    kind: "corrector",
    stateType: R3_STATE,
    slots: { schema: SHARED.schema, ...LOOP_SLOTS },
    options: R3_LOOP_OPTIONS,
    // The given SQL stands as the writer's first answer: no write turn.
    calls: r3Calls(false),
});
