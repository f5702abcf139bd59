/** A JSON scalar: what a test-table cell and a result cell may hold. */
export type JsonScalar = null | number | string | boolean;
export type TableRows = Record<string, JsonScalar>[];
export type TestTables = Record<string, TableRows>;
export interface SandboxOptions {
    /** CPU time limit in milliseconds. Default 1000. */
    timeoutMs?: number;
    /**
     * Heap limit of the QuickJS runtime in bytes. Default 16 MiB: test tables hold a few rows. A memory bomb grows the
     * process by about 45 MiB at 16 MiB (about 120 MiB at 32 MiB), released when its thread ends (bench/sandbox.ts).
     * The thread's WebAssembly memory is capped at 64 MiB, so a larger limit acts as 64 MiB at most.
     */
    memoryBytes?: number;
    /** Characters of the JSON answer at most. Default 1 000 000. */
    maxResultChars?: number;
    /** Rows of the answer at most. Default 10 000. */
    maxRows?: number;
}
export interface SandboxSuccess {
    ok: true;
    columns: string[];
    rows: JsonScalar[][];
    elapsedMs: number;
}
export type SandboxErrorKind = "error" | "timeout" | "memory" | "shape";
export interface SandboxFailure {
    ok: false;
    kind: SandboxErrorKind;
    /** One line, says why. */
    message: string;
    elapsedMs: number;
}
export type SandboxResult = SandboxSuccess | SandboxFailure;
export declare const SANDBOX_DEFAULTS: {
    readonly timeoutMs: 1000;
    readonly memoryBytes: number;
    readonly maxResultChars: 1000000;
    readonly maxRows: 10000;
};
/**
 * Runs test code over test tables. The code reads `tables.<name>` (or the table's name as a global: arrays of row
 * objects) and assigns its answer to a top-level `result`: an array of row objects (columns are the first row's
 * keys, in order), an array of arrays, or a single scalar (one row, one column). Never throws for bad code.
 */
export declare function runSandboxed(code: string, tables: TestTables, options?: SandboxOptions): Promise<SandboxResult>;
