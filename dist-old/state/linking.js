import { z } from "zod";
/**
 * What schema and value linking found for a question (slot `link`): the question's keywords, the columns they point
 * to, and the stored values they match. Memo-SQL (A.2) and TS-SQL (§3.1.1) start from it; the schema node shows
 * matched values beside their columns and keeps linked columns first under the size budget.
 */
export const LinkedColumnSchema = z.object({
    table: z.string(),
    column: z.string(),
    /** Higher is more relevant (cosine similarity with embeddings, a lexical score otherwise). */
    score: z.number(),
    /** What matched: the column's name, its BIRD description, or a stored value. */
    via: z.enum(["name", "description", "value"]),
    keyword: z.string().optional(),
});
export const LinkedValueSchema = z.object({
    keyword: z.string(),
    table: z.string(),
    column: z.string(),
    value: z.string(),
    score: z.number(),
    /** Normalised edit distance between the keyword and the value (0 = same). */
    distance: z.number().optional(),
});
export const LinkingSchema = z.object({
    keywords: z.array(z.string()),
    columns: z.array(LinkedColumnSchema),
    values: z.array(LinkedValueSchema),
    /** How matches were ranked: dense embeddings, or the lexical fallback (and why, in `note`). */
    ranking: z.enum(["embeddings", "lexical"]),
    note: z.string().optional(),
});
