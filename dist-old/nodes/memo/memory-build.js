import { executeSql } from "../execute.js";
import { addUsage, usageOfCalls } from "../../state/usage.js";
import { sampleSeed } from "../../tools/models/sample-seed.js";
import { callModel } from "../../tools/models/llm.js";
import { extractSql } from "../../tools/reply.js";
import { readSchema, renderSchema } from "../../tools/schema.js";
import { scoreQuestion } from "../../tools/benchmarks/score.js";
import { labelError } from "./common.js";
import { samplePrompt } from "./prompts.js";
/** Reads each database's schema once, however many questions ask for it. */
export function schemaCache(executor) {
    const schemas = new Map();
    return (q) => {
        let schema = schemas.get(q.dbPath);
        if (!schema)
            schemas.set(q.dbPath, (schema = readSchema(q.dbPath, { descriptionDir: q.descriptionDir, executor })));
        return schema;
    };
}
/** One training question through the offline phase. Throws when the question cannot be built (its schema unreadable, ...). */
export function buildMemoryEntry(q, options) {
    return buildOne(q, options);
}
async function buildOne(q, options) {
    const schemaText = renderSchema(await options.schemaOf(q), { question: q.question, evidence: q.evidence });
    const context = { schemaText, question: q.question, evidence: q.evidence, linkingText: "" };
    let usage;
    let raw;
    let failure;
    if (options.elicit) {
        const elicited = await options.elicit(q);
        usage = elicited.usage;
        raw = elicited.sqls;
    }
    else {
        // Past five samples the angles repeat: under --seed each sample keeps its own seed (sampleSeed).
        const calls = await Promise.all(Array.from({ length: options.samples }, (_, v) => {
            const seed = sampleSeed(options.models, "sampler", v);
            return callModel(options.models, "sampler", samplePrompt(context, v), seed === undefined ? {} : { overrides: { seed } });
        }));
        usage = usageOfCalls(calls.map((c) => c.record));
        raw = calls.map((call) => (call.ok ? extractSql(call.text) : null));
        failure = calls.find((c) => c.record.error)?.record.error;
    }
    const seen = new Set();
    const sqls = [];
    for (const sql of raw) {
        const norm = sql?.replace(/\s+/g, " ").trim().replace(/;$/, "");
        if (sql && norm && !seen.has(norm)) {
            seen.add(norm);
            sqls.push(sql);
        }
    }
    if (!sqls.length)
        return { outcome: "no-sql", usage, note: failure };
    const wrong = [];
    let executable = 0;
    for (const sql of sqls) {
        const execution = await executeSql(options.executor, q.dbPath, sql, { timeoutMs: options.timeoutMs });
        if (!execution.ok)
            continue;
        executable++;
        const verdict = await scoreQuestion(q, sql, { executor: options.executor, semantics: options.semantics, timeoutMs: options.timeoutMs });
        if (verdict.goldError)
            return { outcome: "gold-fails", usage, note: verdict.goldError };
        if (!verdict.correct && !verdict.predError)
            wrong.push({ sql, fingerprint: execution.fingerprint ?? "", rows: execution.preview?.rowCount ?? 0 });
    }
    if (!executable)
        return { outcome: "none-executable", usage };
    if (!wrong.length)
        return { outcome: "all-correct", usage };
    // The most plausible wrong query: a non-empty result first, then the result most candidates agree on (the
    // model's most confident mistake), then sampling order.
    const agreement = (w) => wrong.filter((x) => x.fingerprint === w.fingerprint).length;
    const chosen = [...wrong].sort((a, b) => Number(b.rows > 0) - Number(a.rows > 0) || agreement(b) - agreement(a))[0];
    const label = await labelError(options.models, { ...context, goldSql: q.goldSql, wrongSql: chosen.sql });
    usage = addUsage(usage, usageOfCalls(label.records));
    if (!label.ok)
        return { outcome: "label-failed", usage, note: label.error };
    return {
        outcome: "entry",
        usage,
        entry: {
            sourceId: `${q.dbId}/${q.id}`,
            dbId: q.dbId,
            question: q.question,
            evidence: q.evidence,
            goldSql: q.goldSql,
            wrongSql: chosen.sql,
            errorTypes: label.errorTypes,
            suggestions: label.suggestions,
        },
    };
}
