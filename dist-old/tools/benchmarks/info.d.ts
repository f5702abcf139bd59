import type { Benchmark, Split } from "../../state/question.ts";
export interface SplitInfo {
    split: Split;
    file: string;
    dbFolder: string;
    questions: number;
    /** Questions whose database is there. */
    runnable: number;
    /** Runnable questions with gold SQL. */
    withGold: number;
    databases: {
        present: string[];
        missing: string[];
    };
    difficulties: Record<string, number>;
    /** A file that could not be read, as its one-line error. */
    error?: string;
}
/** What a benchmark directory holds, split by split (for `sqlmend bench info`). */
export declare function describeBenchmarkDir(dir: string, opts?: {
    cacheDir?: string;
}): Promise<{
    dir: string;
    layout: "spider" | "bird";
    splits: SplitInfo[];
    extraFiles: string[];
}>;
/** Questions, gold, databases present and missing, and difficulty counts of a loaded benchmark. */
export declare function summarizeBenchmark(b: Benchmark): Pick<SplitInfo, "questions" | "runnable" | "withGold" | "databases" | "difficulties">;
