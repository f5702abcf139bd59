import { type LinkResult } from "../tools/linking/link.ts";
import type { NodeDeps, NodeFactory } from "./types.ts";
import type { Linking } from "../state/linking.ts";
import type { ModelCallRecord } from "../state/usage.ts";
/** The linker's prompt: what to pick out of the question, and the JSON to reply with. */
export declare function keywordPrompt(question: string, evidence: string): ({
    role: "system";
    content: string;
} | {
    role: "user";
    content: string;
})[];
export interface LinkInput {
    question: string;
    evidence: string;
    dbPath: string;
    descriptionDir?: string;
    /** Keywords given outright (no linker call), e.g. `sqlmend link --keywords`. */
    keywords?: string[];
}
/** The link step outside a graph too (`sqlmend link`): keywords, then values and columns; with the calls it made. */
export declare function linkQuestion(deps: NodeDeps, input: LinkInput): Promise<{
    linking: Linking;
    records: ModelCallRecord[];
    index?: LinkResult["index"];
}>;
/**
 * Slot `link` (role "linker"). In: question, evidence, dbPath, descriptionDir. Out: linking — the keywords (the
 * linker's, validated; the question's content words when its reply is unusable), the columns they point to, the stored
 * values they match (value index: LSH, edit distance ≤ 0.3, top 5 per keyword), and whether embeddings or the lexical
 * fallback ranked them (`note` says why). Never throws for a bad reply or an unreadable database.
 */
export declare const linkNode: NodeFactory;
