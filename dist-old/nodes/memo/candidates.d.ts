import { z } from "zod";
/**
 * A fixed set of candidates per question (Table 3, A.8: every correction variant corrects *the same* nine candidates):
 * `sqlmend memo candidates` writes it from a memo-sql run (each candidate's SQL as its writer wrote it), and
 * memo-refine `--candidates FILE` corrects those instead of the one initial SQL.
 */
export declare const CANDIDATES_KIND = "sqlmend-memo-candidates";
export declare const CandidateSetsSchema: z.ZodObject<{
    kind: z.ZodLiteral<"sqlmend-memo-candidates">;
    source: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodUnknown>>;
    questions: z.ZodRecord<z.ZodString, z.ZodObject<{
        dbId: z.ZodString;
        question: z.ZodString;
        candidates: z.ZodArray<z.ZodObject<{
            id: z.ZodString;
            sql: z.ZodString;
        }, z.core.$strip>>;
    }, z.core.$strip>>;
}, z.core.$strip>;
export type CandidateSets = z.infer<typeof CandidateSetsSchema>;
/** Reads (once per process and file) and validates a candidates file; a bad file fails in one line. */
export declare function loadCandidateSets(file: string, cwd?: string): CandidateSets;
