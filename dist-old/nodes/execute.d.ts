import type { SqlExecutor } from "../tools/sqlite/types.ts";
import type { Execution } from "../state/sql-state.ts";
import type { NodeFactory } from "./types.ts";
/** Runs one SQL string and keeps what a graph needs: a preview for prompts and a fingerprint for comparisons. */
export declare function executeSql(executor: SqlExecutor, dbPath: string, sql: string, options?: {
    timeoutMs?: number;
    previewRows?: number;
}): Promise<Execution>;
/** Slot `execute`. In: dbPath, sql. Out: execution, and an attempt entry saying whether it ran. No model calls. */
export declare const executeNode: NodeFactory;
