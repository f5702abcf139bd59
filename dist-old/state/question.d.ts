import { z } from "zod";
/** One benchmark question, the same shape for Spider, BIRD and a user's own database. */
export declare const QuestionSchema: z.ZodObject<{
    id: z.ZodString;
    dbId: z.ZodString;
    dbPath: z.ZodString;
    question: z.ZodString;
    evidence: z.ZodDefault<z.ZodString>;
    goldSql: z.ZodOptional<z.ZodString>;
    difficulty: z.ZodOptional<z.ZodString>;
    descriptionDir: z.ZodOptional<z.ZodString>;
    position: z.ZodOptional<z.ZodNumber>;
}, z.core.$strip>;
export type Question = z.infer<typeof QuestionSchema>;
export declare const SkippedQuestionSchema: z.ZodObject<{
    id: z.ZodString;
    dbId: z.ZodString;
    reason: z.ZodString;
    position: z.ZodOptional<z.ZodNumber>;
}, z.core.$strip>;
export type SkippedQuestion = z.infer<typeof SkippedQuestionSchema>;
/** "own": a question file (JSONL, CSV or JSON) over a folder of databases (`--questions FILE --db-dir DIR`). */
export type BenchmarkLayout = "spider" | "bird" | "own";
/** Spider: dev, train, test. BIRD: dev, train, minidev (the mini-dev SQLite release, mini_dev_sqlite.json). */
export { SPLITS, type Split } from "./splits.ts";
import type { Split } from "./splits.ts";
export interface Benchmark {
    /** The directory that was read (absolute). */
    dir: string;
    layout: BenchmarkLayout;
    split: Split;
    /** A short name for reports, e.g. "spider/dev". */
    name: string;
    /** The question file read (absolute). */
    questionsFile?: string;
    /** The folder the databases were looked up in (absolute). */
    dbDir?: string;
    /** Whether the questions came from a file named by `--questions` rather than the layout's own. */
    customQuestions?: boolean;
    questions: Question[];
    /** Questions not runnable (missing database, ...), with the reason. Never silently dropped. */
    skipped: SkippedQuestion[];
}
