/** Prompts of the shared nodes. Methods keep their own prompts beside their graphs. */
export const SQL_SYSTEM = "You are an expert data analyst who writes SQLite queries. Use only tables and columns that exist in the schema. " +
    "Reply with one SQLite query in a ```sql fenced block.";
export function questionBlock(question, evidence) {
    return evidence.trim() ? `Question: ${question}\nEvidence: ${evidence}` : `Question: ${question}`;
}
export function generationPrompt(args) {
    const shots = args.examples.length
        ? `Examples of questions and their SQL (other databases may differ):\n\n${args.examples
            .map((e) => `${questionBlock(e.question, e.evidence)}\nSQL: ${e.sql}`)
            .join("\n\n")}\n\n`
        : "";
    return [
        { role: "system", content: SQL_SYSTEM },
        {
            role: "user",
            content: `Database schema:\n${args.schemaText}\n\n${shots}${questionBlock(args.question, args.evidence)}\n\nWrite the SQLite query that answers the question.`,
        },
    ];
}
export function fixPrompt(args) {
    return [
        { role: "system", content: SQL_SYSTEM },
        {
            role: "user",
            content: `Database schema:\n${args.schemaText}\n\n${questionBlock(args.question, args.evidence)}\n\n` +
                `This query fails:\n\`\`\`sql\n${args.sql}\n\`\`\`\nError: ${args.error}\n\n` +
                "Find the cause and write the corrected SQLite query that answers the question.",
        },
    ];
}
