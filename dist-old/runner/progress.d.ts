import type { Usage } from "../state/usage.ts";
/** Where a run reports progress: the launcher's `RunIO` is one. */
export interface RunIO {
    stderr: (text: string) => void;
    /** True when stderr is a terminal (progress bars redraw in place). */
    isTTY?: boolean;
}
export declare const compactNumber: (n: number) => string;
export declare const formatUsage: (usage: Usage) => string;
/**
 * What a progress line counts besides done/total: a share of the records run now ("EX 61.2%", "passed 80.0%"), or a
 * count ("entries +12").
 */
export type ProgressMetric = {
    label: string;
    as: "share" | "count";
};
/** A progress line on stderr: done/total, EX so far, failed, tokens, ETA. Redrawn in place on a terminal, else every 10%. */
export declare class Progress {
    private readonly total;
    private readonly io;
    private readonly alreadyDone;
    private readonly metric;
    /** More to show before the ETA ("cache 97% (185/190), saved 41k tokens"), or "". */
    private readonly extra?;
    private done;
    private correct;
    private failed;
    private tokens;
    private readonly started;
    private lastPrintedDecile;
    constructor(total: number, io: RunIO, alreadyDone?: number, metric?: ProgressMetric, 
    /** More to show before the ETA ("cache 97% (185/190), saved 41k tokens"), or "". */
    extra?: (() => string) | undefined);
    record(outcome: {
        correct: boolean;
        tokens: number;
        failed?: boolean;
    }): void;
    line(): string;
    private draw;
    finish(): void;
}
/**
 * What fell back during a run (the response cache turned off, a damaged checkpoint file set aside): each said on
 * stderr as it happens and kept, for the run's report to list.
 */
export declare function fallbackNotes(io: RunIO, command: string): {
    notes: string[];
    warn: (line: string) => void;
};
