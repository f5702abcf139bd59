import type { Benchmark, Question } from "../state/question.ts";
/**
 * A benchmark split across machines: `eval --shard I/N` runs the questions at positions I-1, I-1+N, I-1+2N, … of the
 * selection in file order (skipped ones counted, so every shard of one selection agrees on the positions), and
 * `sqlmend merge` (runner/merge.ts) joins the N shard folders into the outputs one process would have written.
 */
export interface Shard {
    /** 1-based. */
    index: number;
    count: number;
}
export declare function parseShard(text: string): Shard;
export declare const shardName: (shard: Shard) => string;
/** The shard's share of a selection: by position in file order over questions and skipped questions together. */
export declare function shardOf(selection: {
    questions: Question[];
    skipped: Benchmark["skipped"];
}, shard: Shard | undefined): {
    questions: Question[];
    skipped: Benchmark["skipped"];
};
