import { z } from "zod";

/** One benchmark question, the same shape for Spider, BIRD and a user's own database. */
export const QuestionSchema = z.object({
  /** Stable id: BIRD's question_id, or the 0-based index in a Spider file, as a string. */
  id: z.string().min(1),
  dbId: z.string().min(1),
  /** Absolute path of the .sqlite file. */
  dbPath: z.string().min(1),
  question: z.string().min(1),
  /** BIRD's external knowledge; empty for Spider. */
  evidence: z.string().default(""),
  goldSql: z.string().optional(),
  /** BIRD: simple | moderate | challenging. Spider: easy | medium | hard | extra (computed from gold SQL). */
  difficulty: z.string().optional(),
  /** BIRD's database_description/ folder for this database, when present. */
  descriptionDir: z.string().optional(),
  /** 0-based place in its question file: text predictions and BIRD mini-dev's pair by it (fileOrder sorts by it). */
  position: z.number().int().nonnegative().optional(),
});
export type Question = z.infer<typeof QuestionSchema>;

export const SkippedQuestionSchema = z.object({
  id: z.string(),
  dbId: z.string(),
  reason: z.string(),
  /** 0-based place in its question file (as Question.position). */
  position: z.number().int().nonnegative().optional(),
});
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
