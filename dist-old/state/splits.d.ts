/** The splits a benchmark layout may have (zod-free, so flag checks that name them load no schema library). */
export type Split = "dev" | "train" | "test" | "minidev";
export declare const SPLITS: readonly Split[];
