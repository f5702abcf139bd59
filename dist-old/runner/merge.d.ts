import { type EvalRecord } from "./report.ts";
export interface MergeResult {
    records: EvalRecord[];
    questions: number;
    shards: number;
    /** Result lines outside their shard's recorded share (a shard resumed with another selection): not merged. */
    ignored: number;
}
/**
 * Joins shard folders into `outDir`: checks that they are the N shards of one run (same graph, benchmark, split,
 * semantics, models, settings and selection; each of 1..N once; every question of each share recorded), then writes
 * results.jsonl in file order, predictions in both official formats and report.md, as a single run would.
 */
export declare function mergeShards(dirs: string[], outDir: string, command: string): Promise<MergeResult>;
/** How a merged run's failed questions are run again: in their shard, not in the merged folder (which --resume refuses). */
export declare const MERGED_RERUN = "run `--resume` on the shard that holds them, then merge again";
