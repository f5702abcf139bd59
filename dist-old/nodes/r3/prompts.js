import { questionBlock } from "../prompts.js";
export function writerSystem(reasoning) {
    const how = reasoning === "pot"
        ? "Before the query, sketch in a short Python program (a ```python block, a few lines) how the answer is computed from the tables; then write the query."
        : "Before the query, reason briefly step by step about the tables, joins and conditions the question needs; then write the query.";
    return ("You are the SQL writer in a review panel. You write SQLite queries that answer questions about a database, using only " +
        `its tables and columns. ${how} Every reply ends with exactly one SQLite query in a \`\`\`sql fenced block.`);
}
/** H's opening turn (x, S): the schema, k examples when asked, the question. Never cut from the history. */
export function openingTurn(args) {
    const shots = args.shots.length
        ? `Examples of questions with their SQL, from other questions (their databases may differ):\n\n${args.shots
            .map((e) => `${questionBlock(e.question, e.evidence)}\nSQL: ${e.sql}`)
            .join("\n\n")}\n\n`
        : "";
    return `Database schema:\n${args.schemaText}\n\n${shots}${questionBlock(args.question, args.evidence)}\n\nWrite the SQLite query that answers the question.`;
}
// Error and review turns repeat the query they are about: when the history is cut to its budget, the writer still
// sees what it is answering for.
export const errorTurn = (sql, error) => `Running your query failed:\n\`\`\`sql\n${sql}\n\`\`\`\nError: ${error}\n\nFind the cause and write a corrected SQLite query (in a \`\`\`sql block).`;
/** Sent back when a writer reply held no query the reader could find. */
export const reaskTurn = () => "Your reply held no SQL query that could be read. Reply again, ending with exactly one SQLite query in a ```sql fenced block.";
/** The debug turn when the writer has given no SQL yet: there is no query or database error to show it. */
export const noSqlTurn = () => "There is no SQL query to run yet. Write the SQLite query that answers the question, in a ```sql block.";
export function reviewsTurn(sql, reviews, failed) {
    const body = reviews.map((r) => `Reviewer ${r.reviewer + 1} (${r.profession}):\n${r.text.trim()}`).join("\n\n");
    const missing = failed ? `\n\n(${failed} reviewer${failed > 1 ? "s" : ""} could not answer this round.)` : "";
    return (`Your reviewers read the question, the schema, your query and its result.\n\`\`\`sql\n${sql}\n\`\`\`\nTheir reviews:\n\n${body}${missing}\n\n` +
        "Weigh each review. If a point is right, revise the query. If you disagree, rebut it in a few sentences and keep your " +
        "query as it is. End with the query you stand by in a ```sql block (unchanged if you keep it).");
}
/**
 * The writer's messages: system, the opening turn, then H's later turns in order. Turns of one role in a row (a
 * failed writer call leaves no reply; the budget may cut an odd number of turns) join into one message: many local
 * models' chat templates refuse roles that do not alternate.
 */
export function writerMessages(reasoning, opening, turns) {
    const dialogue = [];
    for (const { role, content } of [{ role: "user", content: opening }, ...turns]) {
        const previous = dialogue.at(-1);
        if (previous?.role === role)
            previous.content = `${previous.content}\n\n${content}`;
        else
            dialogue.push({ role, content });
    }
    return [{ role: "system", content: writerSystem(reasoning) }, ...dialogue];
}
export function personasPrompt(args) {
    return [
        {
            role: "system",
            content: "You assemble review panels for SQL queries. Each reviewer is a professional whose expertise fits the database's " +
                "domain or the query's constructs, and no two look at the query the same way.",
        },
        {
            role: "user",
            content: `Database schema:\n${args.schemaText}\n\n${questionBlock(args.question, args.evidence)}\n\nQuery under review:\n\`\`\`sql\n${args.sql}\n\`\`\`\n\n` +
                `Propose ${args.n} reviewer${args.n > 1 ? "s" : ""} for this query: for each, a profession (e.g. a database engineer ` +
                "specialised in some clauses, or an analyst in this database's industry) and the aspect it checks first. " +
                `Reply with JSON: {"reviewers": [{"profession": "...", "focus": "..."}]} with ${args.n} entr${args.n > 1 ? "ies" : "y"}.`,
        },
    ];
}
/** The persona call's follow-up: the reviewers kept stand; only the missing ones are asked for, with other professions. */
export function morePersonasPrompt(args) {
    const more = `${args.missing} more reviewer${args.missing > 1 ? "s" : ""}`;
    return [
        ...args.asked,
        { role: "assistant", content: args.reply },
        {
            role: "user",
            content: `Some of those reviewers cannot sit (${args.problems.join("; ")}): each needs a different profession of 3 to 300 characters. ` +
                (args.kept.length ? `These stay on the panel: ${args.kept.join(", ")}. ` : "") +
                `Propose ${more}, with professions other than those. Reply with JSON: {"reviewers": [{"profession": "...", "focus": "..."}]} with ${args.missing} entr${args.missing > 1 ? "ies" : "y"}.`,
        },
    ];
}
export function reviewerPrompt(args) {
    const focus = args.persona.focus ? ` You look first at: ${args.persona.focus}.` : "";
    return [
        {
            role: "system",
            content: `You sit on a review panel for SQL queries. Your profession: ${args.persona.profession}.${focus} You judge queries written to answer questions about a database by what they return.`,
        },
        {
            role: "user",
            content: `Database schema:\n${args.schemaText}\n\n${questionBlock(args.question, args.evidence)}\n\nThe query:\n\`\`\`sql\n${args.sql}\n\`\`\`\n\n` +
                `Its result:\n${args.result}\n\n` +
                "From your expertise, does this query answer the question, and does its result look right? Name concrete problems " +
                "(wrong tables, joins, filters, aggregation, columns returned, ordering, values) and how to fix them; say so plainly if you find none. Be brief.",
        },
    ];
}
