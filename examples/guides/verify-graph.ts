// A method in one file: generate → execute → (fix → execute)* → verify → (regenerate once if the verifier objects).
// Run it: sqlmend eval --graph ./verify-graph.ts --bench minibench --out runs/verify
import { END, START, StateGraph, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import {
  callModel,
  defineGraph,
  defineOptions,
  readOptions,
  routeAfterExecute,
  SHARED_SLOTS,
  SqlInputState,
  sqlStateFields,
  withCalls,
  type NodeFactory,
} from "sqlmend";

// The graph's state: the shared fields every graph has, plus its own.
const VerifyState = new StateSchema({
  ...sqlStateFields,
  verdict: z.string().default(""),
  regenerations: z.number().int().default(0),
});
type VerifyValue = typeof VerifyState.State;
type VerifyUpdate = typeof VerifyState.Update;

const options = defineOptions({
  maxRegenerations: { type: "int", default: 1, min: 0, max: 5, help: "times the SQL is written again after the verifier objects" },
});

// The verifier agent: shown the question and a preview of the result, it answers "yes" or "no: why".
const verifyNode: NodeFactory<VerifyValue, VerifyUpdate> = (deps) => async (state) => {
  const rows = state.execution?.ok ? JSON.stringify(state.execution.preview?.rows.slice(0, 5) ?? []) : `error: ${state.execution?.error}`;
  const call = await callModel(deps.models, "verifier", [
    { role: "user", content: `Question: ${state.question}\nSQL: ${state.sql}\nFirst rows: ${rows}\nDoes the result answer the question? Reply "yes" or "no: <why>".` },
  ]);
  // An unusable reply is not an objection: the method goes on with the SQL it has, and says so.
  const verdict = call.ok ? (/^\s*no\b/i.test(call.text) ? call.text.trim() : "yes") : "yes (the verifier gave no reply)";
  return withCalls({ verdict }, [call.record]);
};

// Writes the SQL again with the verifier's objection in the prompt.
const regenerateNode: NodeFactory<VerifyValue, VerifyUpdate> = (deps) => async (state) => {
  const call = await callModel(deps.models, "generator", [
    { role: "user", content: `Database:\n${state.schemaText}\n\nQuestion: ${state.question}\nA reviewer said of \`${state.sql}\`: ${state.verdict}\nWrite a corrected SQLite query in a \`\`\`sql block.` },
  ]);
  const sql = call.ok ? /```sql\s*([\s\S]*?)```/i.exec(call.text)?.[1]?.trim() : undefined;
  return withCalls({ sql: sql || state.sql, regenerations: state.regenerations + 1, verdict: "", fixRounds: 0 }, [call.record]);
};

export default defineGraph({
  name: "verify",
  summary: "generate, execute and fix, then a verifier agent checks the result; one rewrite when it objects",
  kind: "generator",
  state: VerifyState,
  options,
  slots: {
    schema: SHARED_SLOTS.schema,
    generate: SHARED_SLOTS.generate,
    execute: SHARED_SLOTS.execute,
    fix: SHARED_SLOTS.fix,
    verify: { summary: "judge whether the result answers the question", role: "verifier", reads: ["question", "sql", "execution"], writes: ["verdict"], factory: verifyNode },
    regenerate: { summary: "write the SQL again from the objection", role: "generator", reads: ["schemaText", "question", "sql", "verdict"], writes: ["sql", "regenerations", "verdict", "fixRounds"], requires: ["regenerations"], factory: regenerateNode },
  },
  // The most supersteps a thread takes: its recursion limit (a runaway loop stops here, a bounded one never does).
  steps: (o) => 2 + (1 + readOptions(options, o).maxRegenerations) * (3 + 2 * (o.maxFixRounds ?? 3)),
  // Model calls per question: at least generate and verify; at most every fix and rewrite.
  calls: (o) => {
    const rewrites = readOptions(options, o).maxRegenerations;
    const fixes = typeof o.maxFixRounds === "number" ? o.maxFixRounds : 3;
    return { min: 2, max: (1 + rewrites) * (2 + fixes) };
  },
  // What results.jsonl and report.md say each question went through.
  outcome: { of: (state) => ({ regenerations: Number(state.regenerations ?? 0), objected: String(state.verdict ?? "").startsWith("no") }) },
  wire: ({ node, options: o }) => {
    const { maxRegenerations } = readOptions(options, o);
    return new StateGraph(VerifyState, { input: SqlInputState })
      .addNode("schema", node("schema"))
      .addNode("generate", node("generate"))
      .addNode("execute", node("execute"))
      .addNode("fix", node("fix"))
      .addNode("verify", node("verify"))
      .addNode("regenerate", node("regenerate"))
      .addEdge(START, "schema")
      .addEdge("schema", "generate")
      .addEdge("generate", "execute")
      .addConditionalEdges("execute", (s: VerifyValue) => (routeAfterExecute(o.maxFixRounds)(s) === "fix" ? "fix" : "verify"), ["fix", "verify"])
      .addEdge("fix", "execute")
      .addConditionalEdges("verify", (s: VerifyValue) => (s.verdict.startsWith("no") && s.regenerations < maxRegenerations ? "regenerate" : END), ["regenerate", END])
      .addEdge("regenerate", "execute");
  },
});
