import { z } from "zod";
import { cleanKeywords, lexicalKeywords, type LinkResult, linkKeywords, MAX_KEYWORDS } from "../tools/linking/link.ts";
import { callStructured } from "../tools/models/llm.ts";
import { withCalls } from "./common.ts";
import { questionBlock } from "./prompts.ts";
import type { NodeDeps, NodeFactory } from "./types.ts";
import type { Linking } from "../state/linking.ts";
import type { ModelCallRecord } from "../state/usage.ts";

// No string lengths (strict structured-output modes take none): `cleanKeywords` drops empty and over-long keywords.
export const KeywordsSchema = z.object({ keywords: z.array(z.string()).max(MAX_KEYWORDS) });

/** The linker's prompt: what to pick out of the question, and the JSON to reply with. */
export function keywordPrompt(question: string, evidence: string) {
  return [
    { role: "system" as const, content: "You pick out what a database question refers to, so the right tables, columns and stored values can be found." },
    {
      role: "user" as const,
      content:
        `${questionBlock(question, evidence)}\n\n` +
        "List the keywords and short phrases of the question and evidence that may name a table, a column, a stored value " +
        "(names, places, titles, codes, categories), a number or a date. Copy values as written, misspellings included; " +
        'leave out question words and SQL words. Reply as JSON: {"keywords": ["...", "..."]}.',
    },
  ];
}

export interface LinkInput {
  question: string;
  evidence: string;
  dbPath: string;
  descriptionDir?: string;
  /** Keywords given outright (no linker call), e.g. `sqlmend link --keywords`. */
  keywords?: string[];
  /** Where the value index lives (default: the process's data directory). */
  dataDir?: string;
}

/** The link step outside a graph too (`sqlmend link`): keywords, then values and columns; with the calls it made. */
export async function linkQuestion(deps: NodeDeps, input: LinkInput): Promise<{ linking: Linking; records: ModelCallRecord[]; index?: LinkResult["index"] }> {
  let keywords = input.keywords ? cleanKeywords(input.keywords) : [];
  let why: string | undefined;
  const records: ModelCallRecord[] = [];
  if (!input.keywords) {
    const reply = await callStructured(deps.models, "linker", keywordPrompt(input.question, input.evidence), KeywordsSchema, { name: "keywords" });
    records.push(...reply.records);
    keywords = reply.ok ? cleanKeywords(reply.value.keywords) : [];
    if (!keywords.length) {
      why = `${reply.ok ? "the linker named no keywords" : `keywords: ${reply.error}`}; used the question's own words`;
      keywords = lexicalKeywords(input.question, input.evidence);
    }
  }
  const found = await linkKeywords(keywords, { dbPath: input.dbPath, descriptionDir: input.descriptionDir, executor: deps.executor, embeddings: deps.embeddings, dataDir: input.dataDir });
  const note = [why, found.linking.note].filter(Boolean).join("; ");
  return { linking: { ...found.linking, ...(note ? { note } : {}) }, records: [...records, ...found.records], ...(found.index ? { index: found.index } : {}) };
}

/**
 * Slot `link` (role "linker"). In: question, evidence, dbPath, descriptionDir. Out: linking — the keywords (the
 * linker's, validated; the question's content words when its reply is unusable), the columns they point to, the stored
 * values they match (value index: LSH, edit distance ≤ 0.3, top 5 per keyword), and whether embeddings or the lexical
 * fallback ranked them (`note` says why). Never throws for a bad reply or an unreadable database.
 */
export const linkNode: NodeFactory = (deps) => async (state) => {
  const { linking, records } = await linkQuestion(deps, {
    question: state.question,
    evidence: state.evidence,
    dbPath: state.dbPath,
    descriptionDir: state.descriptionDir || undefined,
  });
  return withCalls({ linking }, records);
};
