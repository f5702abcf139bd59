import { type CliIO } from "../core/io.ts";
import { type FlagValues } from "./run-values.ts";
import type { Question } from "../state/question.ts";
import type { TestCode, TestData, TestRun, TsSqlStateValue } from "../state/ts-sql.ts";
import { type Outcome } from "../graphs/outcome.ts";
/** One gold query against its own test case (RQ0). */
export interface AuditRecord {
    id: string;
    dbId: string;
    question: string;
    evidence: string;
    goldSql: string;
    /** passed: the gold gives the test code's result; failed: it does not (listed for review); untested: no test case. */
    status: "passed" | "failed" | "untested" | "error";
    /** Why untested or error, one line. */
    note?: string;
    testData?: TestData["tables"];
    testCode?: Pick<TestCode, "model" | "code" | "how" | "agreeing">;
    expected?: TestCode["expected"];
    gold?: Pick<TestRun, "ok" | "result" | "error">;
    inputTokens: number;
    outputTokens: number;
    calls: number;
    thread: string;
    /** What the question went through, as the graph declares it (`tsSqlOutcome`: test data, code, skip reason). */
    outcome?: Outcome;
}
/** The verdict of one finished audit thread. */
export declare function auditRecordOf(q: Question, state: TsSqlStateValue | undefined, thread: string, error?: string, outcome?: Outcome): AuditRecord;
/** The review report: counts, then every gold query that fails its own test case with all a reviewer needs. */
export declare function renderAuditReport(records: AuditRecord[], meta: {
    bench: string;
    split: string;
    command: string;
    summarize?: (outcomes: Outcome[]) => string[];
    notes?: string[];
}): string;
/** Flags the audit parses (shared with eval) but has no node to apply them to. */
export declare const AUDIT_REFUSED: [string, string][];
/** The audit's flags: the run's (model, graph knobs, node swaps), every graph's own options, the selection's. */
export declare const auditFlags: () => {
    readonly bench: {
        readonly type: "string";
    };
    readonly split: {
        readonly type: "string";
    };
    readonly questions: {
        readonly type: "string";
    };
    readonly "db-dir": {
        readonly type: "string";
    };
    readonly limit: {
        readonly type: "string";
    };
    readonly ids: {
        readonly type: "string";
        readonly multiple: true;
    };
    readonly concurrency: {
        readonly type: "string";
    };
    readonly out: {
        readonly type: "string";
    };
    readonly resume: {
        readonly type: "boolean";
    };
    readonly model: {
        readonly type: "string";
    };
    readonly "base-url": {
        readonly type: "string";
    };
    readonly config: {
        readonly type: "string";
    };
    readonly "role-model": {
        readonly type: "string";
        readonly multiple: true;
    };
    readonly temperature: {
        readonly type: "string";
    };
    readonly seed: {
        readonly type: "string";
    };
    readonly "request-timeout-ms": {
        readonly type: "string";
    };
    readonly "max-retries": {
        readonly type: "string";
    };
    readonly "max-requests": {
        readonly type: "string";
    };
    readonly stream: {
        readonly type: "boolean";
    };
    readonly "structured-method": {
        readonly type: "string";
    };
    readonly "embedding-model": {
        readonly type: "string";
    };
    readonly "embedding-base-url": {
        readonly type: "string";
    };
    readonly "endpoint-alias": {
        readonly type: "string";
    };
    readonly "embedding-fallback": {
        readonly type: "string";
    };
    readonly cache: {
        readonly type: "string";
    };
    readonly "max-fix-rounds": {
        readonly type: "string";
    };
    readonly "few-shot": {
        readonly type: "string";
    };
    readonly "schema-max-chars": {
        readonly type: "string";
    };
    readonly "query-timeout-ms": {
        readonly type: "string";
    };
    readonly node: {
        readonly type: "string";
        readonly multiple: true;
    };
    readonly graph: {
        readonly type: "string";
    };
    readonly checkpoints: {
        readonly type: "string";
    };
    readonly initial: {
        readonly type: "string";
    };
    readonly correct: {
        readonly type: "string";
    };
};
/**
 * The options of `sqlmend ts-sql audit`, by name (camelCase): `bench` (a folder, or "minibench") or `questions` with
 * `dbDir`, `out`, `split` (default dev), `limit`, `ids`, `concurrency` (default 2), `resume`, the model's (`model`,
 * `baseUrl`, `config`, `roleModel: { ROLE: MODEL }`, `seed`, `cache`, ...), `checkpoints`, `node: { SLOT: FILE }`, and
 * `options`, TS-SQL's own (camelCase, as ts-sql-refine declares them).
 */
export interface AuditOptions {
    bench?: string;
    out: string;
    split?: string;
    limit?: number;
    ids?: string | string[];
    concurrency?: number;
    resume?: boolean;
    options?: Record<string, unknown>;
    [flag: string]: unknown;
}
/** The files an audit writes in its output folder. */
export interface AuditFiles {
    /** A line per question (`AuditRecord`). */
    results: string;
    report: string;
    run: string;
}
/** What an audit did: the counts its report prints, and where its files are. */
export interface AuditResult {
    /** The launcher's exit status: 0 every gold query tested or found untestable, 3 some failed or not run (--resume runs them), 130/143/129 stopped. */
    exitCode: number;
    outDir: string;
    /** Gold queries with a record (passed, failed, untested or error). */
    audited: number;
    /** Gold queries that give their own test case's result. */
    goldPassing: number;
    /** Gold queries that do not: listed in report.md for review. */
    goldFailing: number;
    /** No test case could be built for them. */
    untested: number;
    /** Not audited (a model call got no reply, the graph could not finish): --resume runs them again. */
    failed: number;
    /** Selected but not run (stopped, or the endpoint looked down). */
    notRun: number;
    inputTokens: number;
    outputTokens: number;
    /** Model calls of the audited questions: chat and embedding requests (the linker's), cached ones included. */
    calls: number;
    files: AuditFiles;
}
/**
 * Builds TS-SQL's test case for each selected question and runs its gold SQL on it (the paper's RQ0), writing the
 * folder `sqlmend ts-sql audit` writes (audit.jsonl, report.md, run.json): the launcher's audit is this.
 */
export declare function auditGold(options: AuditOptions, io?: CliIO): Promise<AuditResult>;
/** The audit from its flag values (the launcher's parse after `audit`, or `auditGold`'s): the one body both run. */
export declare function audit(input: {
    values: FlagValues;
    positionals: string[];
    argv?: string[];
}, io: CliIO): Promise<AuditResult>;
