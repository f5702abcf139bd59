import { z } from "zod";
/**
 * What schema and value linking found for a question (slot `link`): the question's keywords, the columns they point
 * to, and the stored values they match. Memo-SQL (A.2) and TS-SQL (§3.1.1) start from it; the schema node shows
 * matched values beside their columns and keeps linked columns first under the size budget.
 */
export declare const LinkedColumnSchema: z.ZodObject<{
    table: z.ZodString;
    column: z.ZodString;
    score: z.ZodNumber;
    via: z.ZodEnum<{
        name: "name";
        value: "value";
        description: "description";
    }>;
    keyword: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type LinkedColumn = z.infer<typeof LinkedColumnSchema>;
export declare const LinkedValueSchema: z.ZodObject<{
    keyword: z.ZodString;
    table: z.ZodString;
    column: z.ZodString;
    value: z.ZodString;
    score: z.ZodNumber;
    distance: z.ZodOptional<z.ZodNumber>;
}, z.core.$strip>;
export type LinkedValue = z.infer<typeof LinkedValueSchema>;
export declare const LinkingSchema: z.ZodObject<{
    keywords: z.ZodArray<z.ZodString>;
    columns: z.ZodArray<z.ZodObject<{
        table: z.ZodString;
        column: z.ZodString;
        score: z.ZodNumber;
        via: z.ZodEnum<{
            name: "name";
            value: "value";
            description: "description";
        }>;
        keyword: z.ZodOptional<z.ZodString>;
    }, z.core.$strip>>;
    values: z.ZodArray<z.ZodObject<{
        keyword: z.ZodString;
        table: z.ZodString;
        column: z.ZodString;
        value: z.ZodString;
        score: z.ZodNumber;
        distance: z.ZodOptional<z.ZodNumber>;
    }, z.core.$strip>>;
    ranking: z.ZodEnum<{
        lexical: "lexical";
        embeddings: "embeddings";
    }>;
    note: z.ZodOptional<z.ZodString>;
}, z.core.$strip>;
export type Linking = z.infer<typeof LinkingSchema>;
