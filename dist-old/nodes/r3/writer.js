import { callModel } from "../../tools/models/llm.js";
import { extractSql, stripThinking } from "../../tools/reply.js";
import { MAX_SQL_REASKS } from "./options.js";
import { openingTurn, reaskTurn, writerMessages, writerSystem } from "./prompts.js";
/** Rough token count (4 characters a token): no tokenizer tables are needed offline, and the budget is a soft limit. */
export const estimateTokens = (text) => Math.ceil(text.length / 4);
/**
 * The later turns of H that fit the budget with the system prompt and the opening turn (question and schema, never
 * cut): oldest first out; the newest turn always stays.
 */
export function fitHistory(fixed, turns, budget) {
    let total = fixed.reduce((n, text) => n + estimateTokens(text), 0) + turns.reduce((n, t) => n + estimateTokens(t.content), 0);
    let start = 0;
    while (total > budget && start < turns.length - 1)
        total -= estimateTokens(turns[start++].content);
    return { turns: turns.slice(start), dropped: start };
}
/** As a writer turn in H: the SQL a corrector was given stands as the writer's first answer. */
export const sqlTurn = (sql, round) => ({ role: "assistant", kind: "sql", round, content: `\`\`\`sql\n${sql}\n\`\`\`` });
export { MAX_SQL_REASKS };
/** One writer call on H (+ a new user turn): the writer's memory across the debug and review loops. */
export async function askWriter(deps, state, opts, next) {
    const seed = state.history.length === 0 && state.sql ? [sqlTurn(state.sql, 0)] : [];
    const opening = openingTurn({ schemaText: state.schemaText, question: state.question, evidence: state.evidence, shots: state.shots });
    const round = next?.round ?? state.rounds;
    const added = [...seed, ...(next ? [next] : [])];
    const records = [];
    let dropped = 0;
    for (let reasks = 0;; reasks++) {
        const fitted = fitHistory([writerSystem(opts.reasoning), opening], [...state.history, ...added], opts.historyTokens);
        dropped = Math.max(dropped, fitted.dropped);
        const call = await callModel(deps.models, "writer", writerMessages(opts.reasoning, opening, fitted.turns));
        records.push(call.record);
        const sql = call.ok ? extractSql(call.text) : null;
        if (call.ok && call.text.trim())
            added.push({ role: "assistant", kind: "sql", round, content: stripThinking(call.text) });
        if (sql)
            return { sql, turns: added, records, reasks, dropped };
        const error = call.ok ? "reply holds no SQL" : (call.record.error ?? "model call failed");
        call.record.error = error;
        // A failed call is not asked again here: the model layer has retried it already.
        if (!call.ok || reasks >= MAX_SQL_REASKS)
            return { sql: null, turns: added, records, error: reasks ? `${error} (after ${reasks} re-ask${reasks > 1 ? "s" : ""})` : error, reasks, dropped };
        added.push({ role: "user", kind: "reask", round, content: reaskTurn() });
    }
}
/** The note for an attempt when the writer had to be asked again. */
export const reaskNote = (reasks) => (reasks ? `the writer's reply held no SQL: asked again ${reasks} time${reasks > 1 ? "s" : ""}` : undefined);
export const droppedNote = (dropped) => (dropped ? `history cut to the budget: ${dropped} oldest turn${dropped > 1 ? "s" : ""} left out` : undefined);
