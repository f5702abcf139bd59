import { readOptions } from "../../core/options.js";
import { sameQuestionIds, searchExamples } from "../../tools/retrieval/example-search.js";
import { withCalls } from "../common.js";
import { R3_OPTIONS } from "./options.js";
import { askWriter, reaskNote } from "./writer.js";
/**
 * Slot `write` (role "writer"): y = LLM(x, S), the first SQL, with the k training questions most similar to this one
 * (dense embeddings when `deps.embeddings` is set, BM25 otherwise), never the question itself. Out: sql, history [y],
 * shots, shotsRanking, shotsPool (the pool drawn from, and what it left out). Without a training split it writes
 * zero-shot and says so; an empty pool is an error.
 */
export const writeNode = (deps, options) => async (state) => {
    const opts = readOptions(R3_OPTIONS, options);
    const notes = [];
    let shots = [];
    let shotsRanking = "zero-shot";
    let shotsPool = "";
    const embeddingCalls = [];
    if (opts.kShot > 0) {
        // A pool given but empty is a broken run, not a zero-shot one (the launcher refuses it before the first question).
        if (deps.examples && !deps.examples.size)
            throw new Error(`k-shot ${opts.kShot}: the training example pool is empty`);
        if (deps.examples) {
            const left = deps.examples.leftOut;
            shotsPool = left ? `${deps.examples.size} of ${deps.examples.size + left.count} training questions (${left.count} left out: ${left.reason})` : `all ${deps.examples.size} training questions`;
            if (left)
                notes.push(`examples drawn from ${shotsPool}`);
            const self = sameQuestionIds(deps.examples, state);
            const found = await searchExamples(deps.examples, `${state.question} ${state.evidence}`.trim(), opts.kShot, self, deps.embeddings);
            shots = found.examples.map(({ id, question, evidence, sql }) => ({ id, question, evidence, sql }));
            shotsRanking = found.ranking;
            embeddingCalls.push(...found.records);
        }
        else {
            shotsPool = "none given";
            notes.push(`k-shot ${opts.kShot} asked but no training examples were given: zero-shot`);
        }
    }
    const turn = await askWriter(deps, { ...state, shots }, opts);
    const note = [...notes, reaskNote(turn.reasks), turn.sql ? undefined : `${turn.error}; kept the previous SQL`].filter(Boolean).join("; ") || undefined;
    return withCalls({
        shots,
        shotsRanking,
        shotsPool,
        history: turn.turns,
        writerReasks: state.writerReasks + turn.reasks,
        ...(turn.sql ? { sql: turn.sql } : {}),
        attempts: [{ node: "write", sql: turn.sql ?? state.sql, ok: !!turn.sql, ...(note ? { note } : {}) }],
    }, [...embeddingCalls, ...turn.records]);
};
