import { readSchema, renderSchema } from "../tools/schema.ts";
import type { NodeFactory } from "./types.ts";
import { DEFAULTS } from "./common.ts";

/**
 * Slot `schema`. In: dbPath, descriptionDir, question, evidence, schemaText, linking. Out: schemaText (CREATE TABLE text
 * within the size budget, keeping keys and the columns most relevant to the question — linked columns first — with the
 * stored values linking matched beside their columns). Leaves a given schemaText alone.
 */
export const loadSchemaNode: NodeFactory = (deps, options) => schemaNodeIn("create")(deps, options);

/**
 * Slot `schema` as TS-SQL shows it (A.1 and A.2, issue 32): the same selection as `loadSchemaNode`, a line per table
 * instead of CREATE statements (`renderSchema`'s `lines` layout).
 */
export const lineSchemaNode: NodeFactory = (deps, options) => schemaNodeIn("lines")(deps, options);

const schemaNodeIn = (layout: "create" | "lines"): NodeFactory => (deps, options) => async (state) => {
  if (state.schemaText) return {};
  const schema = await readSchema(state.dbPath, { descriptionDir: state.descriptionDir || undefined, executor: deps.executor });
  return {
    schemaText: renderSchema(schema, {
      question: state.question,
      evidence: state.evidence,
      maxChars: options.schemaMaxChars ?? DEFAULTS.schemaMaxChars,
      linking: state.linking,
      layout,
    }),
  };
};
