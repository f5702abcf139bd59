import type { Benchmark, Question } from "../../state/question.ts";
import type { ExecResult, SqlExecutor } from "../sqlite/types.ts";
export type Semantics = "bird" | "spider";
export { pyFloatRepr, pySortKey, resultsMatch, valueKey } from "../sqlite/compare.js";
export { resultFingerprint } from "../sqlite/digest.js";
/**
 * The first statement of the text: up to its first top-level ";" (kept), with the whitespace and comments after it;
 * `dropped` when a statement follows. test-suite-sql-eval's remove_distinct parses only sqlparse's first statement.
 */
export declare function firstStatement(sql: string): {
    sql: string;
    dropped: boolean;
};
/**
 * Its remove_distinct: the first statement only (see firstStatement), every DISTINCT keyword token dropped (not
 * inside strings, quoted names or comments).
 */
export declare function removeDistinct(sql: string): string;
/** The verdict's note when test-suite-sql-eval's DISTINCT removal kept only the first statement of a prediction. */
export declare const DROPPED_STATEMENTS = "statements after the first dropped, as test-suite-sql-eval's DISTINCT removal (its default) keeps only the first";
/** Its postprocess ('> =' → '>=' ...) and replace_cur_year (YEAR(CURDATE()) → 2020). */
export declare function spiderRewrite(sql: string): string;
export interface Verdict {
    id: string;
    correct: boolean;
    /** One line: kind + message. */
    predError?: string;
    goldError?: string;
    predRows?: number;
    goldRows?: number;
    difficulty?: string;
    /** VES: mean gold/pred time ratio after outlier removal (0 when not correct or timing failed). */
    timeRatio?: number;
    /** R-VES reward bucket (BIRD mini-dev) of timeRatio. */
    reward?: number;
    /** The prediction is a statement that writes (INSERT, DROP, ...): scored as an error, never run. */
    writes?: boolean;
    /** What the scorer changed in the prediction before running it, as the official scorer does (DROPPED_STATEMENTS). */
    note?: string;
    /** Scored again this many times because another process held a lock on the database (scoreAll). */
    lockRetries?: number;
    /** BIRD mini-dev's Soft F1 of this prediction, 0..1 (when asked). */
    softF1?: number;
    /** Why Soft F1 is 0 without being computed: a side past SOFT_F1_MAX_ROWS. */
    softF1Note?: string;
    /** Test-suite accuracy: matched the gold on every variant (absent when not asked or no variant was found). */
    testSuite?: boolean;
    /** The variant where the test-suite check failed, or why it could not run. */
    testSuiteNote?: string;
    /**
     * Scored wrong because a side returned more rows than the scorer compares (tools/sqlite/digest.js
     * MAX_COMPARE_ROWS, or MAX_PERMUTATION_CELLS for Spider's column permutations): which side, and the cap.
     */
    tooLarge?: string;
}
/** The first keyword of a prediction that writes ("DROP"), or undefined; leading comments and parentheses skipped. */
export declare function writingStatement(sql: string): string | undefined;
/** A question with no gold SQL (own data): run, never scored. */
export declare const NO_GOLD = "no gold SQL";
/** A side could not read the database (locked, corrupt, unreadable): the question is not scored, it is not wrong. */
export declare const databaseErrorOf: (v: Pick<Verdict, "predError" | "goldError">) => string | undefined;
/** Pauses before scoring a question again whose database another process holds locked (each after SQLite's own wait). */
export declare const LOCK_RETRY_DELAYS_MS: number[];
export interface VesOptions {
    /** Timed runs of each query (BIRD's evaluation_ves.py uses 100). */
    iterations?: number;
}
export interface ScoreOptions {
    executor: SqlExecutor;
    semantics: Semantics;
    /** Per query. Default 30 000 (BIRD's meta_time_out). */
    timeoutMs?: number;
    /** Spider semantics: keep DISTINCT (test-suite-sql-eval's --keep_distinct). */
    keepDistinct?: boolean;
    /** Measure VES for correct predictions. */
    ves?: boolean | VesOptions;
    goldCache?: GoldCache;
}
export declare const DEFAULT_VES_ITERATIONS = 10;
export declare const OFFICIAL_VES_ITERATIONS = 100;
/** A query as actually run (the executor may rewrite double-quoted literals), and its result. */
export interface CompatRun {
    sql: string;
    result: ExecResult;
}
/** Caches gold results per (database file, its size and mtime, SQL). */
export declare class GoldCache {
    private readonly maxEntries;
    private readonly entries;
    constructor(maxEntries?: number);
    get(executor: SqlExecutor, dbPath: string, sql: string, timeoutMs: number): Promise<CompatRun>;
}
/** BIRD's clean_abnormal: keeps values strictly within mean ± 3 population std. */
export declare function cleanAbnormal(values: number[]): number[];
/** BIRD mini-dev's R-VES reward for a time ratio (0 when incorrect). */
export declare function vesReward(timeRatio: number): number;
/**
 * gold/pred time ratio as BIRD's evaluation_ves.py measures it: per round the prediction runs, then the gold (each on
 * a fresh connection, every row read), the round's ratio gold/pred; clean_abnormal over the rounds, then the mean.
 * Timing every prediction run before every gold run instead would let drift between the two blocks decide the side of
 * ratio 1, where R-VES has a bucket edge.
 */
export declare function measureTimeRatio(executor: SqlExecutor, dbPath: string, predSql: string, goldSql: string, iterations: number, timeoutMs: number): Promise<number>;
/** The queries actually executed, and whether row order matters, under the given semantics. */
export declare function prepareQueries(predSql: string, goldSql: string, semantics: Semantics, keepDistinct?: boolean): {
    pred: string;
    gold: string;
    orderMatters: boolean;
};
/**
 * Scores one prediction against the question's gold SQL. Never throws for bad SQL or files. With an executor that
 * compares in its workers (compare()), the rows never leave them; otherwise both results come back and compare here.
 */
export declare function scoreQuestion(q: Question, predSql: string, opts: ScoreOptions): Promise<Verdict>;
/** Rows a side Soft F1 reads at most (it needs the rows themselves, here). */
export declare const SOFT_F1_MAX_ROWS = 200000;
/**
 * Soft F1 of one prediction (0 when either query fails, or a side is past SOFT_F1_MAX_ROWS). The rows come back from the executor: Soft F1 needs both
 * results, not a verdict. The queries run as written, whatever the EX semantics (as the official script runs them).
 */
export declare function softF1Of(q: Question, predSql: string, opts: Pick<ScoreOptions, "executor" | "semantics" | "timeoutMs" | "keepDistinct">): Promise<{
    f1: number;
    error?: string;
}>;
export interface TestSuiteVerdict {
    /** Undefined when the folder has no variant of the question's database (not counted). */
    correct?: boolean;
    variants: number;
    /** The first variant where the prediction failed or differed, and why. */
    failedOn?: string;
}
/**
 * Test-suite accuracy of one prediction: right only when it matches the gold on every variant (test-suite-sql-eval's
 * eval_exec_match), each compared as EX compares (the scorer's semantics; official: spider). Stops at the first miss.
 */
export declare function testSuiteVerdict(q: Question, predSql: string, variants: string[], opts: ScoreOptions): Promise<TestSuiteVerdict>;
export interface DifficultyScore {
    difficulty: string;
    count: number;
    correct: number;
    /** Percentage 0..100. */
    ex: number;
    ves?: number;
    rves?: number;
    /** Mean Soft F1, percentage 0..100. */
    softF1?: number;
    /** Test-suite accuracy, percentage 0..100, over the questions that had variants. */
    ts?: number;
}
export interface ScoreReport {
    semantics: Semantics;
    keepDistinct: boolean;
    count: number;
    correct: number;
    /** Execution accuracy, percentage 0..100. */
    ex: number;
    byDifficulty: DifficultyScore[];
    /**
     * VES as BIRD's evaluation_ves.py: mean over questions of 100·sqrt(time ratio), 0 when wrong;
     * rves as BIRD mini-dev's R-VES: mean of 100·sqrt(reward bucket). iterations: timed runs per query.
     */
    ves?: {
        iterations: number;
        officialIterations: number;
        ves: number;
        rves: number;
    };
    /** The metrics computed (ex always; ves, r-ves, soft-f1, ts when asked) and the databases they ran on. */
    metrics: Metric[];
    databases?: string;
    /** Mean Soft F1 over the scored questions, percentage 0..100. */
    softF1?: number;
    /** Test-suite accuracy: over questions whose database has variants in `dir`; `noVariants` had none (not counted). */
    testSuite?: {
        dir: string;
        count: number;
        correct: number;
        accuracy: number;
        noVariants: number;
    };
    /** Questions without gold SQL: run, not scored (not in count). */
    noGold: number;
    /** Questions not scored because their database could not be read (locked after the retries, corrupt): not in count. */
    databaseErrors: Array<{
        id: string;
        error: string;
    }>;
    /** Questions with no prediction (scored wrong). */
    missingPredictions: number;
    /** Questions scored wrong because a result was past the scorer's row cap (Verdict.tooLarge). */
    tooLarge: number;
    /** Questions whose prediction (or gold query) was stopped at the time limit (an error kind "timeout"). */
    timeouts: number;
    /** Prediction ids that match no question. */
    unmatchedPredictions: string[];
    /** Questions whose prediction writes (INSERT, DROP, ...): scored as errors, never run. */
    writingPredictions: string[];
    /** Questions whose prediction had statements after the first, dropped as the official scorer drops them. */
    droppedStatements: string[];
    verdicts: Verdict[];
    elapsedMs: number;
}
export interface ScoreAllOptions {
    executor: SqlExecutor;
    semantics: Semantics;
    /**
     * Questions in flight. Default: all of them when the executor compares in its workers (its pool bounds real
     * parallelism, and a full queue lets it send comparisons in large batches, so workers rarely wait for this
     * process); otherwise 16 × CPUs, as every result then comes back here.
     */
    concurrency?: number;
    timeoutMs?: number;
    keepDistinct?: boolean;
    ves?: boolean | VesOptions;
    /** Which metrics to compute beyond EX (ves and r-ves both come from `ves`). */
    softF1?: boolean;
    /** A test-suite folder (variants per db_id, see testSuiteVariants): adds test-suite accuracy. */
    testSuiteDir?: string;
    /** Said in the report: the folder the questions' databases came from. */
    databases?: string;
    /** Pauses before scoring a locked database's question again (default LOCK_RETRY_DELAYS_MS). */
    lockRetryDelaysMs?: number[];
    onVerdict?: (verdict: Verdict, done: number, total: number) => void;
}
export type Metric = "ex" | "ves" | "r-ves" | "soft-f1" | "ts";
export declare const METRICS: readonly Metric[];
/** EX per difficulty level, in the benchmarks' order (BIRD's levels, Spider's, then any other by name). */
export declare function exByDifficulty<T extends {
    correct: boolean;
    difficulty?: string;
}>(items: T[], extra?: (group: T[]) => Partial<DifficultyScore>): DifficultyScore[];
/** EX per database (MAGIC's Figure 4), databases by name. */
export declare function exByDatabase<T extends {
    correct: boolean;
    dbId: string;
}>(items: T[]): {
    db: string;
    count: number;
    correct: number;
    ex: number;
}[];
/** Scores every question (in parallel); a question without a prediction is wrong ("no prediction"). */
export declare function scoreAll(questions: Question[], predictions: Map<string, string>, opts: ScoreAllOptions): Promise<ScoreReport>;
export declare const BIRD_SEPARATOR = "\t----- bird -----\t";
export type PredictionFormat = "bird" | "spider";
/** One prediction of a file, in file order: its key (a JSON key, or the 0-based line), and its SQL (none: 0 or null). */
export interface PredictionEntry {
    key: string;
    sql: string | undefined;
    /** Text format: the line as written, a trailing "\tdb_id" included (pairPredictions drops it knowing the db_ids). */
    line?: string;
}
export interface PredictionRead {
    format: PredictionFormat;
    /** By key (JSON) or line index (text, a trailing "\tdb_id"-shaped token dropped): for callers without questions. */
    predictions: Map<string, string>;
    /** Every entry in file order: a JSON object's keys as written (the order Python's json.load keeps), or the lines. */
    entries: PredictionEntry[];
    /** Text format: the line count. */
    lines?: number;
}
/**
 * A JSON object's keys in the order written, each once (first place, as a Python dict keeps it; JSON.parse lists
 * integer-like keys first, in numeric order). The text is valid JSON.
 */
export declare function jsonObjectKeys(text: string): string[];
/**
 * Reads predictions: BIRD's predict_dev.json ({"id": "SQL\t----- bird -----\tdb_id"}, a 0 or null
 * value meaning none) or Spider's text format (one SQL per line, in question order; a trailing "\tdb_id" is dropped).
 * In the text format every line is a question's: a blank line is an empty prediction, never skipped (skipping one
 * would shift every later prediction onto the wrong question); only the newline that ends the last line ends no line.
 * `entries` keeps the file's order; pairPredictions pairs them with questions. Malformed → UserError.
 */
export declare function readPredictionFile(file: string): Promise<PredictionRead>;
/**
 * A text line's SQL: a trailing "\tdb_id" is dropped when it names one of the benchmark's databases; any other tab is
 * whitespace of the query, kept whole (a tab before a query's last word is not a db_id).
 */
export declare function textLineSql(line: string, dbIds: ReadonlySet<string>): string;
/** How a predictions file is paired with the questions: "position" (the n-th entry is the n-th question's) or "key". */
export type Pairing = "position" | "key";
/**
 * Predictions by question id, paired as the official scorers pair them. `ordered`: every question of the selected
 * question file in file order (those skipped for a missing database included: they keep their place).
 * - Text format: by position, always (Spider's evaluation.py zips lines with questions).
 * - JSON with `pairing` "position" (BIRD mini-dev: its evaluation_ex.py zips the dict's values, in file order, with
 *   mini_dev_sqlite.json): the n-th entry is the n-th question's, whatever its key; otherwise by key (question id).
 * A positional file must have an entry per question, unless `onlyPredicted` (then it pairs with the first ones, as
 * the official zip does). Fails with a one-line UserError.
 */
export declare function pairPredictions(file: string, read: PredictionRead, ordered: ReadonlyArray<{
    id: string;
    dbId: string;
}>, opts: {
    pairing: Pairing;
    onlyPredicted?: boolean;
    hint?: string;
}): Map<string, string>;
/** How a benchmark's JSON predictions pair with its questions: BIRD mini-dev's by position (its official scorer's way). */
export declare function predictionPairing(bench: Pick<Benchmark, "layout" | "split" | "customQuestions">): Pairing;
/** Predictions by question id (see readPredictionFile). */
export declare function readPredictions(file: string): Promise<Map<string, string>>;
/** Writes BIRD's predict_<split>.json: {"id": "SQL\t----- bird -----\tdb_id"}. */
export declare function writeBirdPredictions(file: string, rows: Array<{
    id: string;
    sql: string;
    dbId: string;
}>): Promise<void>;
/**
 * Writes Spider's text format: one line per question, in order ("SQL\tdb_id" when dbId is given).
 * Line breaks and tabs inside a query become spaces; an empty query is written as "SELECT"
 * (which fails to execute) so lines stay aligned with questions.
 */
export declare function writeSpiderPredictions(file: string, rows: Array<{
    sql: string;
    dbId?: string;
}>): Promise<void>;
