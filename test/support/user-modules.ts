/**
 * Modules of a user's own that several tests run: a graph in one file (`defineGraph`) importing sqlmend by the given
 * path (the test runner's loader has no launcher hooks), as a user's module would import "sqlmend".
 */

/** Baseline's nodes plus a slot of its own (`tidy`) with its own state field, option (`--tidy-rounds`) and outcome. */
export const tidyGraphModule = (library: string) => `
import { END, START, StateGraph, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { defineGraph, defineOptions, readOptions, routeAfterExecute, SHARED_SLOTS, SqlInputState, sqlStateFields } from ${JSON.stringify(library)};

const TidyState = new StateSchema({ ...sqlStateFields, tidied: z.number().int().default(0) });
const options = defineOptions({ tidyRounds: { type: "int", default: 1, min: 0, help: "times the tidy node strips the SQL" } });

const tidy = (_deps, opts) => async (state) => {
  const { tidyRounds } = readOptions(options, opts);
  let sql = state.sql;
  for (let i = 0; i < tidyRounds; i++) sql = sql.trim().replace(/;+$/, "");
  return { sql, tidied: tidyRounds };
};

export default defineGraph({
  name: "tidy-baseline",
  summary: "baseline with a tidy step after generation",
  kind: "generator",
  state: TidyState,
  options,
  slots: {
    schema: SHARED_SLOTS.schema,
    generate: SHARED_SLOTS.generate,
    tidy: { summary: "strip trailing semicolons", reads: ["sql"], writes: ["sql", "tidied"], factory: tidy },
    execute: SHARED_SLOTS.execute,
    fix: SHARED_SLOTS.fix,
  },
  steps: (o) => 4 + 2 * (o.maxFixRounds ?? 3),
  outcome: { of: (state) => ({ tidied: state.tidied }) },
  wire: ({ node, options: o }) =>
    new StateGraph(TidyState, { input: SqlInputState })
      .addNode("schema", node("schema"))
      .addNode("generate", node("generate"))
      .addNode("tidy", node("tidy"))
      .addNode("execute", node("execute"))
      .addNode("fix", node("fix"))
      .addEdge(START, "schema")
      .addEdge("schema", "generate")
      .addEdge("generate", "tidy")
      .addEdge("tidy", "execute")
      .addConditionalEdges("execute", routeAfterExecute(o.maxFixRounds), ["fix", END])
      .addEdge("fix", "execute"),
});
`;
