// A replacement for the `generate` slot: the generator first lists the steps the query needs, then writes it.
// Run it: sqlmend eval baseline --node generate=./plan-first-generate.ts --plan-steps 3 --bench minibench --out runs/plan
import { defineOptions, readOptions, writeSqlStep, type NodeFactory } from "sqlmend";

// Options this node reads: they become flags of the run (`--plan-steps`), are checked, shown by --help and recorded.
export const options = defineOptions({
  planSteps: { type: "int", default: 3, min: 1, max: 10, help: "steps the generator plans before it writes SQL" },
});

const planFirstGenerate: NodeFactory = (deps, runOptions) => async (state) => {
  const { planSteps } = readOptions(options, runOptions);
  const prompt = [
    { role: "system" as const, content: "You write one SQLite query that answers the user's question." },
    {
      role: "user" as const,
      content:
        `Database:\n${state.schemaText}\n\nQuestion: ${state.question}\nEvidence: ${state.evidence || "none"}\n\n` +
        `List at most ${planSteps} steps the query needs, then give the query in a \`\`\`sql block.`,
    },
  ];
  // Asks the `generator` role, takes the SQL out of the reply, and on a reply without SQL keeps the previous SQL and
  // says why in `attempts` — a node never throws for a bad reply. Its call record comes back in `calls` and `usage`.
  return writeSqlStep(deps.models, "generator", prompt, "generate", state);
};

export default planFirstGenerate;
