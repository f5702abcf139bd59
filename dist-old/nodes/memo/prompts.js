import { ERROR_TYPE_HELP, ERROR_TYPES, renderEntry } from "../../tools/retrieval/memory-store.js";
import { questionBlock, SQL_SYSTEM } from "../prompts.js";
const taxonomy = () => ERROR_TYPES.map((t) => `- ${t}: ${ERROR_TYPE_HELP[t]}`).join("\n");
/**
 * Schema, linked items, then `context` (exemplars, memory cases: whatever the model reads before it), then the target
 * question — the last question the model reads is the one to answer, as in the shared generation prompt.
 */
const header = (c, context = "") => `Database schema:\n${c.schemaText}\n\n${c.linkingText ? `${c.linkingText}\n\n` : ""}${context ? `${context}\n\n` : ""}${questionBlock(c.question, c.evidence)}`;
// ---------------------------------------------------------------- the memory (offline)
export function samplePrompt(c, variant) {
    const angles = [
        "Write the query the most direct way.",
        "Write the query with explicit JOINs and table aliases.",
        "Write the query using subqueries where they fit.",
        "Write the query using a WITH clause (CTE).",
        "Think about which columns and filters the question really needs, then write the query.",
    ];
    return [
        { role: "system", content: SQL_SYSTEM },
        { role: "user", content: `${header(c)}\n\n${angles[variant % angles.length]} Reply with one SQLite query in a sql block.` },
    ];
}
export function labelPrompt(c) {
    return [
        { role: "system", content: "You review SQL mistakes and explain them so that the same mistake can be avoided later." },
        {
            role: "user",
            content: `${header(c)}\n\nCorrect SQL:\n${c.goldSql}\n\nWrong SQL (it runs, but returns a different result):\n${c.wrongSql}\n\n` +
                `Classify what is wrong with the wrong SQL using one or more of these error types (use the names exactly):\n${taxonomy()}\n\n` +
                'Then write concrete suggestions: what to change in the wrong SQL, and why, so that it matches the correct one. Reply as JSON {"errorTypes": [...], "suggestions": "..."}.',
        },
    ];
}
// ---------------------------------------------------------------- decomposition and ReAct+Reflect
const PARADIGM = {
    table: "Table-wise decomposition: find every table (entity) the question involves, and write one sub-question per table with that table's own filters and outputs; the last sub-question combines them through their keys.",
    hierarchical: "Hierarchical decomposition: work from the innermost meaning outwards. First sub-questions compute the inner measures or conditions (averages, existence, per-entity totals); later ones use them in the outer conditions and the final output.",
    atomic: "Atomic operational decomposition: a pipeline of single relational operations in order — filter, join, project, group, aggregate, sort/limit — one sub-question per operation.",
    random: "Split the question into whatever sequence of smaller sub-questions you find natural; no particular scheme is required.",
};
const SEED_STARTS = ["what the question asks to return", "the conditions the question sets", "the last thing the question mentions", "the first thing the question mentions"];
/**
 * The seed of path `path` (0-based) for a question. Size and starting point are drawn once per question (a hash of
 * the question alone) and offset by path, so the three paths always ask for a different size and a different start
 * (3 paths over 4 sizes and 4 starts); the seed string itself hashes question and path.
 */
export function decompositionSeed(question, path) {
    const drawn = fnv1a(question);
    return {
        seed: fnv1a(`${path}\0${question}`).toString(16).padStart(8, "0"),
        size: 2 + (((drawn >>> 8) + path) % 4),
        start: SEED_STARTS[((drawn % SEED_STARTS.length) + path) % SEED_STARTS.length],
    };
}
function fnv1a(text) {
    let h = 2166136261;
    for (const ch of text)
        h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
    return h;
}
export function decomposePrompt(c, paradigm, seed) {
    const drawn = paradigm === "random" && seed ? `Random seed ${seed.seed}: let it pick the split — about ${seed.size} sub-questions, starting from ${seed.start}.\n\n` : "";
    return [
        { role: "system", content: "You plan how to answer a database question step by step." },
        {
            role: "user",
            content: `${header(c)}\n\n${PARADIGM[paradigm]}\n\n${drawn}` +
                "Decompose the question this way into 2–5 sub-questions, each answerable by one SQL query, in the order to solve them. " +
                'If the question is too simple to decompose, set "simple" to true. If this scheme does not fit the question (it would be ill-defined or add needless steps), set "fits" to false. ' +
                'Reply as JSON {"simple": boolean, "fits": boolean, "subQuestions": ["..."]}.',
        },
    ];
}
const showSteps = (steps) => steps.length
    ? steps.map((s) => `Step ${s.index + 1} (${s.kind}): ${s.subQuestion}\nSQL: ${s.sql}\n${s.kind === "reflect" ? "Reflection" : "Result"}: ${s.observation}`).join("\n\n")
    : "(none yet)";
export function actPrompt(c, plan, index, earlier) {
    return [
        { role: "system", content: SQL_SYSTEM },
        {
            role: "user",
            content: `${header(c)}\n\nPlan:\n${plan.map((q, i) => `${i + 1}. ${q}`).join("\n")}\n\nSteps so far:\n${showSteps(earlier)}\n\n` +
                `Now step ${index + 1}: ${plan[index]}\nFirst reason briefly about what this step needs (tables, columns, conditions), then write the SQLite query for this step (it may build on earlier steps' queries) in a sql block.`,
        },
    ];
}
export function reflectPrompt(c, plan, current, earlier) {
    return [
        { role: "system", content: "You check intermediate SQL results for mistakes before they propagate." },
        {
            role: "user",
            content: `${header(c)}\n\nPlan:\n${plan.map((q, i) => `${i + 1}. ${q}`).join("\n")}\n\nEarlier steps:\n${showSteps(earlier)}\n\nCurrent step: ${current.subQuestion}\nSQL: ${current.sql}\nResult: ${current.observation}\n\n` +
                "Does the current step's SQL or result show a problem — wrong columns or tables, a filter that does not match the stored values, an empty or implausible result, a contradiction with earlier steps, or a misreading of the question? " +
                'Reply as JSON {"problem": boolean, "issue": "what is wrong and how to fix it, or empty"}.',
        },
    ];
}
export function revisePrompt(c, current, issue, earlier) {
    return [
        { role: "system", content: SQL_SYSTEM },
        {
            role: "user",
            content: `${header(c)}\n\nEarlier steps:\n${showSteps(earlier)}\n\nStep: ${current.subQuestion}\nSQL: ${current.sql}\nResult: ${current.observation}\n\nA reviewer found this problem: ${issue}\n\n` +
                "Write the corrected SQLite query for this step in a sql block.",
        },
    ];
}
const STYLE_TEXT = {
    join: "a flat query: all tables in one FROM with explicit JOIN ... ON clauses, filters in WHERE, no subqueries and no WITH clause",
    cte: "common table expressions: each intermediate result as a named WITH clause, then a final SELECT over them",
    nested: "nested subqueries: auxiliary logic inside the outer query through IN, EXISTS or scalar subqueries",
};
export function writePrompt(c, steps, style, exemplars, plan = []) {
    const shots = exemplars.length ? `Examples of questions and their SQL (other databases may differ):\n\n${exemplars.map((e) => `${questionBlock(e.question, e.evidence)}\nSQL: ${e.sql}`).join("\n\n")}` : "";
    return [
        { role: "system", content: SQL_SYSTEM },
        {
            role: "user",
            content: `${header(c, shots)}\n\n${steps.length || !plan.length ? `The sub-questions were solved like this:\n${showSteps(steps)}` : `The question breaks down into these sub-questions:\n${plan.map((q, i) => `${i + 1}. ${q}`).join("\n")}`}\n\n` +
                `Now write one SQLite query that answers the whole question, written as ${STYLE_TEXT[style]}. Reply with the query in a sql block.`,
        },
    ];
}
// ---------------------------------------------------------------- memory-guided correction
export function criticPrompt(c, sql, observation, cases) {
    const memory = cases.length
        ? `Past mistakes on similar questions, with their error types and how they were fixed:\n\n${cases.map((e, i) => renderEntry(e, i + 1)).join("\n\n")}`
        : "";
    return [
        { role: "system", content: "You are a strict reviewer of SQLite queries: you decide whether a query answers its question, and if not, why." },
        {
            role: "user",
            content: `${header(c, memory)}\n\nQuery under review:\n${sql}\nIts result: ${observation}\n\n` +
                `Decide whether this query is wrong. If it is, name its error types from this list (names exactly):\n${taxonomy()}\n` +
                'and say precisely what to change. Reply as JSON {"wrong": boolean, "errorTypes": [...], "suggestions": "..."} (empty list and text when it is right).',
        },
    ];
}
export function refinePrompt(c, sql, observation, errorTypes, suggestions) {
    return [
        { role: "system", content: SQL_SYSTEM },
        {
            role: "user",
            content: `${header(c)}\n\nQuery:\n${sql}\nIts result: ${observation}\n\nA reviewer says it is wrong (${errorTypes.join(", ") || "unspecified"}): ${suggestions}\n\n` +
                "Rewrite the query to fix these problems, changing nothing else. Reply with the corrected SQLite query in a sql block.",
        },
    ];
}
