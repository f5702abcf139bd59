import type { Split } from "../../state/question.ts";
export declare const isDir: (p: string) => boolean;
export declare const isFile: (p: string) => boolean;
/** Where a layout keeps each split: its question file and its databases folder. */
export declare const SPLIT_FILES: Record<"spider" | "bird", Partial<Record<Split, {
    file: string;
    dbFolder: string;
}>>>;
/** The splits of a layout whose question file and databases folder are both there. */
export declare function splitsPresent(dir: string, layout: "spider" | "bird"): Split[];
/** Which layout a directory holds, or undefined. */
export declare function detectLayout(dir: string): "spider" | "bird" | undefined;
export declare const LOOKED_FOR: string;
/** How a question's database file is found. */
export type DbLookup = (dbId: string) => {
    path: string;
    rel: string;
    descriptionDir?: string;
};
/** A layout's databases folder: `<folder>/<db_id>/<db_id>.sqlite`. */
export declare const layoutDbs: (root: string, dbFolder: string, descriptions: boolean) => DbLookup;
/** A user's folder: `DIR/<db_id>.sqlite`, else `DIR/<db_id>/<db_id>.sqlite`. */
export declare const ownDbs: (dir: string) => DbLookup;
/** Several roots, searched in order (a set with databases of its own beside a benchmark's): the first that has it. */
export declare const firstOf: (lookups: DbLookup[]) => DbLookup;
/**
 * `--db-dir` roots: one folder, or several joined by the path delimiter (":" here; ";" on Windows) and searched in
 * order. A folder whose name holds the delimiter is taken whole.
 */
export declare function dbRoots(dbDir: string): string[];
