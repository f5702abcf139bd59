import { readSchema, renderSchema } from "../tools/schema.js";
import { DEFAULTS } from "./common.js";
/**
 * Slot `schema`. In: dbPath, descriptionDir, question, evidence, schemaText, linking. Out: schemaText (CREATE TABLE text
 * within the size budget, keeping keys and the columns most relevant to the question — linked columns first — with the
 * stored values linking matched beside their columns). Leaves a given schemaText alone.
 */
export const loadSchemaNode = (deps, options) => async (state) => {
    if (state.schemaText)
        return {};
    const schema = await readSchema(state.dbPath, { descriptionDir: state.descriptionDir || undefined, executor: deps.executor });
    return {
        schemaText: renderSchema(schema, {
            question: state.question,
            evidence: state.evidence,
            maxChars: options.schemaMaxChars ?? DEFAULTS.schemaMaxChars,
            linking: state.linking,
        }),
    };
};
