import { z } from "zod";
import type { Linking } from "../state/linking.ts";
import { callStructured } from "../tools/llm.ts";
import { readSchema } from "../tools/schema.ts";
import { withCalls } from "./common.ts";
import { questionBlock } from "./prompts.ts";
import type { NodeFactory } from "./types.ts";

// First cut of the `link` slot (keywords → columns by name). The value index, column descriptions and embeddings
// come with the shared linking tools (issue 8); the slot's contract and the `linking` field stay as they are.

const KeywordsSchema = z.object({ keywords: z.array(z.string().min(1)).max(40) });

/**
 * Slot `link` (role "linker"). In: question, evidence, dbPath. Out: linking (keywords, relevant columns, matched
 * values). A bad reply leaves keywords empty and says why in `linking.note`; it never throws.
 */
export const linkNode: NodeFactory = (deps) => async (state) => {
  const reply = await callStructured(
    deps.models,
    "linker",
    [
      { role: "system", content: "You pick out what a database question refers to." },
      {
        role: "user",
        content: `${questionBlock(state.question, state.evidence)}\n\nList the keywords and phrases of the question and evidence that name tables, columns, values, numbers or dates, as JSON {"keywords": [...]}.`,
      },
    ],
    KeywordsSchema,
    { name: "keywords" },
  );
  const keywords = reply.ok ? [...new Set(reply.value.keywords.map((k) => k.trim()).filter(Boolean))] : [];
  const schema = await readSchema(state.dbPath, { executor: deps.executor });
  const columns: Linking["columns"] = [];
  for (const table of schema.tables) {
    for (const column of table.columns) {
      const name = column.name.toLowerCase().replace(/_/g, " ");
      const keyword = keywords.find((k) => name.includes(k.toLowerCase()) || k.toLowerCase().includes(name));
      if (keyword) columns.push({ table: table.name, column: column.name, score: 1, via: "name", keyword });
    }
  }
  const linking: Linking = { keywords, columns, values: [], ranking: "lexical", ...(reply.ok ? {} : { note: `keywords: ${reply.error}` }) };
  return withCalls({ linking }, reply.records);
};
