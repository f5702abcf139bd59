const clock = (ms) => {
    if (!Number.isFinite(ms) || ms < 0)
        return "--";
    const s = Math.round(ms / 1000);
    return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
};
export const compactNumber = (n) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${Math.round(n / 1e3)}k` : String(n));
export const formatUsage = (usage) => {
    const roles = Object.entries(usage.byRole)
        .map(([role, t]) => `${role} ${compactNumber(t.inputTokens)}/${compactNumber(t.outputTokens)} (${t.calls})`)
        .join(", ");
    return `${usage.inputTokens} in, ${usage.outputTokens} out, ${usage.calls} calls${roles ? `  [${roles}]` : ""}`;
};
/** A progress line on stderr: done/total, EX so far, failed, tokens, ETA. Redrawn in place on a terminal, else every 10%. */
export class Progress {
    total;
    io;
    alreadyDone;
    metric;
    extra;
    done = 0;
    correct = 0;
    failed = 0;
    tokens = 0;
    started = performance.now();
    lastPrintedDecile = -1;
    constructor(total, io, alreadyDone = 0, metric = { label: "EX", as: "share" }, 
    /** More to show before the ETA ("cache 97% (185/190), saved 41k tokens"), or "". */
    extra) {
        this.total = total;
        this.io = io;
        this.alreadyDone = alreadyDone;
        this.metric = metric;
        this.extra = extra;
    }
    record(outcome) {
        this.done++;
        if (outcome.correct)
            this.correct++;
        if (outcome.failed)
            this.failed++;
        this.tokens += outcome.tokens;
        this.draw();
    }
    line() {
        const finished = this.alreadyDone + this.done;
        const width = 24;
        const filled = this.total ? Math.round((finished / this.total) * width) : width;
        // A failed question is no answer: the share is over the questions that were answered.
        const answered = this.done - this.failed;
        const shown = this.metric.as === "count" ? `+${this.correct}` : answered ? `${((this.correct / answered) * 100).toFixed(1)}%` : "--";
        const failed = this.failed ? `  failed ${this.failed}` : "";
        const perQuestion = this.done ? (performance.now() - this.started) / this.done : NaN;
        const eta = clock(perQuestion * (this.total - finished));
        const extra = this.extra?.() ? `  ${this.extra()}` : "";
        return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${finished}/${this.total}  ${this.metric.label} ${shown}${failed}  tokens ${compactNumber(this.tokens)}${extra}  ETA ${eta}`;
    }
    draw() {
        if (this.io.isTTY) {
            this.io.stderr(`\r${this.line()}\x1b[K`);
            return;
        }
        const finished = this.alreadyDone + this.done;
        const decile = this.total ? Math.floor((finished / this.total) * 10) : 10;
        if (decile !== this.lastPrintedDecile) {
            this.lastPrintedDecile = decile;
            this.io.stderr(`${this.line()}\n`);
        }
    }
    finish() {
        if (this.io.isTTY)
            this.io.stderr("\n");
    }
}
/**
 * What fell back during a run (the response cache turned off, a damaged checkpoint file set aside): each said on
 * stderr as it happens and kept, for the run's report to list.
 */
export function fallbackNotes(io, command) {
    const notes = [];
    return {
        notes,
        warn: (line) => {
            notes.push(line);
            io.stderr(`sqlmend ${command}: warning: ${line}\n`);
        },
    };
}
