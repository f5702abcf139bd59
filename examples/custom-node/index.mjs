// A new strategy for one slot, in plain Node ESM against the installed package: the baseline graph with its `schema`
// node swapped for one that shows the model only the tables whose names appear in the question.
//
//   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 SQLMEND_MODEL=qwen2.5-coder:7b node index.mjs my.sqlite "How many dogs?"
import { baselineSpec, createOpenAIProvider, getSharedExecutor, readSchema, renderSchema, resolveModelConfig } from "sqlmend";

/** A NodeFactory: (deps, options) => node. It reads what the `schema` slot reads and writes what it must (schemaText). */
const questionTablesOnly = (deps) => async (state) => {
  const schema = await readSchema(state.dbPath, { executor: deps.executor });
  const words = new Set(state.question.toLowerCase().match(/[a-z_]+/g) ?? []);
  const tables = schema.tables.filter((t) => words.has(t.name.toLowerCase()) || words.has(`${t.name.toLowerCase()}s`));
  return { schemaText: `-- tables named in the question\n${renderSchema({ ...schema, tables: tables.length ? tables : schema.tables })}` };
};

const [dbPath, question] = process.argv.slice(2);
if (!dbPath || !question) {
  console.error('usage: node index.mjs DATABASE.sqlite "QUESTION"');
  process.exit(2);
}
const models = createOpenAIProvider(resolveModelConfig({}, process.env, process.cwd()), process.env);
const executor = getSharedExecutor();
const graph = baselineSpec.build({ models, executor }, { slots: { schema: questionTablesOnly } });
const state = await graph.invoke({ graph: "baseline", questionId: "example", question, evidence: "", dbId: "example", dbPath });
console.log(JSON.stringify({ sql: state.sql, ok: state.execution?.ok ?? false, rows: state.execution?.preview?.rows ?? [] }));
await executor.close();
