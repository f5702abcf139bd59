import { Command } from "@langchain/langgraph";
import { readOptions } from "../../core/options.js";
import { STRATEGIES, STYLES } from "../../state/memo.js";
import { callModel } from "../../tools/models/llm.js";
import { extractSql } from "../../tools/reply.js";
import { withCalls } from "../common.js";
import { executeSql } from "../execute.js";
import { exemplarsFor } from "./common.js";
import { MEMO_SQL_OPTIONS } from "./options.js";
import { writePrompt } from "./prompts.js";
/**
 * Slot `write` (role `writer`), once per (path, style): the final query for the whole question in one style, with
 * `exemplars` training examples retrieved by question + skeleton of the path's latest sub-SQL (§3.4.1; dense with
 * the shared embedder, else lexical; none under noIcl or without a training split; `meta.icl` says which). Out: one candidate `strategy:style`, executed; then the collect gate.
 */
export const writeNode = (deps, options) => async ({ ctx, strategy, steps, style, order, plan, sharedWith = [] }) => {
    const { noIcl, exemplars: k } = readOptions(MEMO_SQL_OPTIONS, options);
    const latest = [...steps].reverse().find((s) => s.kind !== "reflect" && s.sql)?.sql ?? "";
    const wanted = !noIcl && k > 0;
    const retrieved = wanted && deps.examples?.size ? await exemplarsFor(deps.examples, deps.embeddings, ctx.question, latest, k, { id: ctx.questionId, dbId: ctx.dbId, question: ctx.question }) : undefined;
    const exemplars = retrieved?.examples ?? [];
    const icl = !wanted ? "off" : (retrieved?.ranking ?? "off: no training examples");
    const call = await callModel(deps.models, "writer", writePrompt(ctx, steps, style, exemplars, plan ?? []));
    const sql = (call.ok ? extractSql(call.text) : null) ?? "";
    if (!sql)
        call.record.error = call.record.error ?? "reply holds no SQL";
    const execution = await executeSql(deps.executor, ctx.dbPath, sql, options);
    const candidate = {
        id: `${strategy}:${style}`,
        sql,
        source: `memo:${strategy}:${style}`,
        execution,
        // `written`: the SQL as written, which refinement may replace (`sqlmend memo candidates` exports it).
        meta: { strategy, style, order, exemplars: exemplars.map((e) => e.id), icl, rounds: 0, final: false, verdicts: [], written: sql },
    };
    // Paths with the same plan were solved once (the `paths` gate): this candidate is theirs too, one vote per path as
    // three identical paths would have cast.
    const copies = sharedWith.map((other) => ({
        ...candidate,
        id: `${other}:${style}`,
        source: `memo:${other}:${style}`,
        meta: { ...candidate.meta, strategy: other, order: STRATEGIES.indexOf(other) * STYLES.length + STYLES.indexOf(style), sharedFrom: candidate.id },
    }));
    return new Command({
        update: withCalls({ candidates: [candidate, ...copies], attempts: [{ node: "write", sql, ok: !!sql, note: sql ? undefined : `${call.record.error}; no candidate SQL` }] }, [...(retrieved?.records ?? []), call.record]),
        goto: "collect",
    });
};
