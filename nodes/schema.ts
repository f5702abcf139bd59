import { readSchema, renderSchema } from "../tools/schema.ts";
import type { NodeFactory } from "./types.ts";
import { DEFAULTS } from "./common.ts";

/**
 * Slot `schema`. In: dbPath, descriptionDir, question, evidence, schemaText, linking. Out: schemaText (CREATE TABLE text
 * within the size budget, keeping keys and the columns most relevant to the question — linked columns first — with the
 * stored values linking matched beside their columns). Leaves a given schemaText alone.
 */
export const loadSchemaNode: NodeFactory = (deps, options) => schemaNodeIn("create", true)(deps, options);

/**
 * Slot `schema` as TS-SQL shows it (A.1, §3.2): a line per table instead of CREATE statements (`renderSchema`'s `lines`
 * layout), and no stored value, neither example values nor the values linking matched — the paper's SQL generation
 * and revision see "the database schema and regenerated test data samples" only, never a row of the real database
 * (as `revise` shows it). The linked columns still rank what a size budget keeps.
 */
export const lineSchemaNode: NodeFactory = (deps, options) => schemaNodeIn("lines", false)(deps, options);

const schemaNodeIn = (layout: "create" | "lines", storedValues: boolean): NodeFactory => (deps, options) => async (state) => {
  if (state.schemaText) return {};
  const schema = await readSchema(state.dbPath, { descriptionDir: state.descriptionDir || undefined, executor: deps.executor });
  return {
    schemaText: renderSchema(schema, {
      question: state.question,
      evidence: state.evidence,
      maxChars: options.schemaMaxChars ?? DEFAULTS.schemaMaxChars,
      linking: storedValues || !state.linking ? state.linking : { ...state.linking, values: [] },
      layout,
      sampleValues: storedValues,
    }),
  };
};
