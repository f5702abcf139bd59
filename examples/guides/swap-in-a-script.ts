// The same swap in a script: baseline with the plan-first generator, on one question.
// Run it: OPENAI_BASE_URL=http://127.0.0.1:11434/v1 SQLMEND_MODEL=qwen2.5-coder:7b npx tsx swap-in-a-script.ts db.sqlite "How many singers?"
import { baselineSpec, defaultDeps } from "sqlmend";
import planFirstGenerate from "./plan-first-generate.ts";

const [dbPath = "", question = ""] = process.argv.slice(2);
// The model and executor from the environment, as the launcher makes them. A misspelt slot would not compile, and
// is refused by name when the graph is built.
const graph = baselineSpec.build(defaultDeps(), { slots: { generate: planFirstGenerate }, planSteps: 2 });
const state = await graph.invoke({ question, dbPath });
console.log(state.sql);
