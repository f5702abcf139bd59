import type { Usage } from "../../state/usage.ts";

/** Where a run reports progress: the launcher's `RunIO` is one. */
export interface RunIO {
  stderr: (text: string) => void;
  /** True when stderr is a terminal (progress bars redraw in place). */
  isTTY?: boolean;
}

const clock = (ms: number) => {
  if (!Number.isFinite(ms) || ms < 0) return "--";
  const s = Math.round(ms / 1000);
  return s >= 3600 ? `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, "0")}m` : `${Math.floor(s / 60)}m${String(s % 60).padStart(2, "0")}s`;
};

export const compactNumber = (n: number) => (n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e4 ? `${Math.round(n / 1e3)}k` : String(n));

export const formatUsage = (usage: Usage): string => {
  const roles = Object.entries(usage.byRole)
    .map(([role, t]) => `${role} ${compactNumber(t.inputTokens)}/${compactNumber(t.outputTokens)} (${t.calls})`)
    .join(", ");
  return `${usage.inputTokens} in, ${usage.outputTokens} out, ${usage.calls} calls${roles ? `  [${roles}]` : ""}`;
};

/**
 * What a progress line counts besides done/total: a share of the records run now ("EX 61.2%", "passed 80.0%"), or a
 * count ("entries +12").
 */
export type ProgressMetric = { label: string; as: "share" | "count" };

/** A progress line on stderr: done/total, EX so far, failed, tokens, ETA. Redrawn in place on a terminal, else every 10%. */
export class Progress {
  private done = 0;
  private correct = 0;
  private failed = 0;
  private tokens = 0;
  /** What the questions done before this invocation (a resume) counted: the line is over the whole run. */
  private prior = { correct: 0, answered: 0, tokens: 0 };
  private readonly started = performance.now();
  private lastPrintedDecile = -1;
  constructor(
    private readonly total: number,
    private readonly io: RunIO,
    private readonly alreadyDone = 0,
    private readonly metric: ProgressMetric = { label: "EX", as: "share" },
    /** More to show before the ETA ("cache 97% (185/190), saved 41k tokens"), or "". */
    private readonly extra?: () => string,
  ) {}

  /** A question done before this invocation (kept by a resume): counted in the share and tokens, not in the pace. */
  before(outcome: { correct: boolean; tokens: number }) {
    this.prior.answered++;
    if (outcome.correct) this.prior.correct++;
    this.prior.tokens += outcome.tokens;
  }

  record(outcome: { correct: boolean; tokens: number; failed?: boolean }) {
    this.done++;
    if (outcome.correct) this.correct++;
    if (outcome.failed) this.failed++;
    this.tokens += outcome.tokens;
    this.draw();
  }

  line(): string {
    const finished = this.alreadyDone + this.done;
    const width = 24;
    const filled = this.total ? Math.round((finished / this.total) * width) : width;
    // A failed question is no answer: the share is over the questions that were answered, in the whole run.
    const answered = this.done - this.failed + this.prior.answered;
    const correct = this.correct + this.prior.correct;
    const shown = this.metric.as === "count" ? `+${this.correct}` : answered ? `${((correct / answered) * 100).toFixed(1)}%` : "--";
    const failed = this.failed ? `  failed ${this.failed}` : "";
    const perQuestion = this.done ? (performance.now() - this.started) / this.done : NaN;
    const eta = clock(perQuestion * (this.total - finished));
    const extra = this.extra?.() ? `  ${this.extra()}` : "";
    return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${finished}/${this.total}  ${this.metric.label} ${shown}${failed}  tokens ${compactNumber(this.tokens + this.prior.tokens)}${extra}  ETA ${eta}`;
  }

  private draw() {
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
    if (this.io.isTTY) this.io.stderr("\n");
  }
}

/**
 * What fell back during a run (the response cache turned off, a damaged checkpoint file set aside): each said on
 * stderr as it happens and kept, for the run's report to list.
 */
export function fallbackNotes(io: RunIO, command: string): { notes: string[]; warn: (line: string) => void } {
  const notes: string[] = [];
  return {
    notes,
    warn: (line) => {
      notes.push(line);
      io.stderr(`sqlmend ${command}: warning: ${line}\n`);
    },
  };
}
