import { questionBlock } from "../prompts.js";
/**
 * MAGIC's prompts (Figures 5-9), in our own words. The structure follows the paper: who is shown what, what must
 * come back. An agent's instructions (the system message) are what the manager revises; the data block (question,
 * SQL, feedback, ...) is always filled in by the node from state, so a revision cannot drop or falsify it.
 */
const fence = (sql) => `\`\`\`sql\n${sql}\n\`\`\``;
/** Figure 5: the feedback agent explains the mistakes; it compares with the correct SQL but must not write it. */
export const FEEDBACK_INSTRUCTIONS = "You are a database expert reviewing a query that gave the wrong answer. Compare the incorrect SQL with the correct " +
    "SQL and explain, in plain present-tense sentences, each mistake in the incorrect SQL and what the query must do " +
    "instead. Do not write the corrected query or any SQL statement. Treat what the user marks as correct as correct.";
/** The feedback agent's data block (below its instructions): the manager is shown the same text when it revises them. */
function feedbackData(args) {
    const [first, ...later] = args.incorrectSqls;
    const tried = later.length ? `\n\nRevisions tried since, also incorrect:\n${later.map(fence).join("\n")}` : "";
    return `${questionBlock(args.question, args.evidence)}\n\nCorrect SQL:\n${fence(args.goldSql)}\n\nIncorrect SQL:\n${fence(first ?? "")}${tried}\n\nThe mistakes of the incorrect SQL are:`;
}
export function feedbackPrompt(args) {
    return [
        { role: "system", content: args.instructions || FEEDBACK_INSTRUCTIONS },
        { role: "user", content: feedbackData(args) },
    ];
}
export const FEEDBACK_HOLDS_GOLD = "Your explanation contains the correct SQL query. Explain the mistakes again in words only, without writing the corrected query.";
/**
 * Figure 6: the correction agent revises s' from the feedback; it is never shown the correct SQL. As in the figure:
 * its task, what it receives, and the SQL format of its answer — nothing on how to reason (the ask-yourself questions
 * belong to the guideline, which the cycle's agent does not have yet).
 */
export const CORRECTION_INSTRUCTIONS = "Your task is to correct a predicted SQL query using the feedback an expert gave on it.\n" +
    "1. What you receive: a question, the database schema, the predicted SQL query and the expert's feedback.\n" +
    "2. What you answer: your reply must contain one valid SQLite query, in a ```sql fenced block.";
export const SQL_FORMAT_LINE = "End your reply with the corrected SQLite query in a ```sql fenced block.";
/** The correction agent's data block (below its instructions): the manager is shown the same text, schema aside. */
function correctionData(args) {
    return (`Database schema:\n${args.schemaText}\n\n${questionBlock(args.question, args.evidence)}\n\n` +
        `Predicted SQL:\n${fence(args.incorrectSql)}\n\nExpert feedback:\n${args.feedback || "(no feedback)"}\n\n${SQL_FORMAT_LINE}`);
}
export function correctionPrompt(args) {
    return [
        { role: "system", content: args.instructions || CORRECTION_INSTRUCTIONS },
        { role: "user", content: correctionData(args) },
    ];
}
const MANAGER_SYSTEM = "You manage other AI agents: you rewrite their instructions so that their next answer is useful.";
/**
 * Figures 7 and 8: the manager rewrites an agent's instructions from its last output that did not help. §3.1 lists
 * what it goes on: "the previous response of the agent, previous prompt that is used for interacting with the agent,
 * question, s', and s^gt". The previous prompt is the instructions plus the data block below them, so the manager is
 * shown both, the data block as the agent read it: for the feedback agent the question, evidence, s^gt, s' and the
 * failed revisions it was shown; for the correction agent (its schema left out) the question, evidence, s' and the
 * feedback it had to apply, and s^gt as its ideal output, which the agent must never see.
 */
export function revisePrompt(args) {
    const description = args.agent === "feedback"
        ? "It explains the mistakes of an incorrect SQL query by comparing it with the correct query, without writing the correct query."
        : "It corrects an SQL query using an expert's feedback; it is shown the schema, the question, the incorrect query and the feedback.";
    const data = args.agent === "feedback"
        ? feedbackData({ question: args.question, evidence: args.evidence, goldSql: args.goldSql, incorrectSqls: args.incorrectSqls ?? [args.incorrectSql] })
        : correctionData({ schemaText: "(the database schema, left out here)", question: args.question, evidence: args.evidence, incorrectSql: args.incorrectSql, feedback: args.feedback ?? "" });
    const shown = `Below its instructions the agent was shown:\n"""\n${data}\n"""`;
    const ideal = args.agent === "correction"
        ? `\n\nThe agent's output should have led to this query. It is for you only: the instructions must not contain this query, any part of its result, or the answer to the question.\n${fence(args.goldSql)}`
        : "";
    return [
        { role: "system", content: MANAGER_SYSTEM },
        {
            role: "user",
            content: `Revise the instructions of this agent. You have revised them ${args.revisions} time(s) so far.\n\nAgent: ${description}\n` +
                `The question it worked on: ${args.question}\n\nIts current instructions:\n"""\n${args.instructions}\n"""\n\n${shown}\n\n` +
                `Its last output, which did not lead to a correct query:\n"""\n${args.lastOutput || "(empty)"}\n"""${ideal}\n\n` +
                "The question, the queries and the feedback are added below the instructions automatically; write only the instructions. " +
                "Reply with the complete revised instructions and nothing else.",
        },
    ];
}
/** What the manager is told when its reply cannot be used as instructions, before it is asked once more. */
export const unusableInstructions = (why) => `That reply cannot be used as the agent's instructions (${why}). Reply with the complete revised instructions, in plain sentences addressed to the agent, and nothing else.`;
export const INSTRUCTIONS_HOLD_GOLD = "Those instructions give away the correct query or rows of its result. Rewrite them so that they guide the agent without revealing the query or its result.";
/** No-manager ablation: the feedback agent compares the revision's result with the correct query's and judges it. */
export function judgePrompt(args) {
    return [
        { role: "system", content: "You are a database expert. Decide whether a revised SQL query now answers the question as the correct query does, by comparing what the two return." },
        {
            role: "user",
            content: `${questionBlock(args.question, args.evidence)}\n\nCorrect SQL:\n${fence(args.goldSql)}\n\nResult of the correct SQL:\n${args.goldResult}\n\n` +
                `Revised SQL:\n${fence(args.revisedSql)}\n\nResult of the revised SQL:\n${args.result}\n\nReply with a JSON object {"correct": true|false, "reason": "one sentence"}.`,
        },
    ];
}
/** Figure 9: the manager merges a batch of successful feedbacks into the guideline. */
export const GUIDELINE_FORMAT = `N. <short reminder of the mistake>
- Question: "<question>"
- Incorrect SQL generated by me: <incorrect SQL>
- Corrected SQL generated by me: <corrected SQL>
- Negative and strict step-by-step ask-to-myself questions to prevent the same mistake again:
  - Did I ...?
  - Have I ...?`;
export function mergePrompt(args) {
    const items = args.batch
        .map((f, i) => `Mistake ${i + 1}\n${questionBlock(f.question, f.evidence)}\nIncorrect SQL:\n${fence(f.incorrectSql)}\nCorrected SQL:\n${fence(f.correctedSql)}\nFeedback that led to the correction:\n${f.feedback}`)
        .join("\n\n");
    return [
        { role: "system", content: "You maintain a self-correction guideline: numbered reminders of SQL mistakes an assistant made, written in its own voice, for it to check its next queries against." },
        {
            role: "user",
            content: `Each reminder has this format:\n${GUIDELINE_FORMAT}\n\n` +
                `Guideline so far:\n${args.guideline.trim() || "(empty: this is the first batch)"}\n\n` +
                `New mistakes to add (merge a mistake into an existing reminder when it is the same kind of mistake; otherwise add a reminder):\n\n${items}\n\n` +
                "Reply with the complete updated guideline in Markdown, and nothing else.",
        },
    ];
}
/** What the manager is told when its merged guideline cannot be used, before it is asked once more. */
export const unusableGuideline = (why) => `That reply cannot replace the guideline (${why}). Reply with the complete updated guideline: every earlier reminder, merged or kept, plus the new ones, in the numbered format, and nothing else.`;
/** Graph `magic`: the corrector walks the guideline's ask-yourself questions against the SQL, then revises it. */
export function guidelineCorrectionPrompt(args) {
    return [
        {
            role: "system",
            content: "You review and correct your own SQLite queries with a guideline of mistakes you made before. For each reminder in the " +
                "guideline, ask yourself its questions about the query below and answer them honestly; fix what they reveal, and keep " +
                "what is already right.",
        },
        {
            role: "user",
            content: `Guideline:\n${args.guideline.trim()}\n\nDatabase schema:\n${args.schemaText}\n\n${questionBlock(args.question, args.evidence)}\n\n` +
                `Your query:\n${fence(args.sql)}\n\nGo through the guideline's questions, then end your reply with the revised SQLite query (the same query if nothing needs to change) in a \`\`\`sql fenced block.`,
        },
    ];
}
