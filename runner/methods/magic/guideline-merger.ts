// The guideline merger of a MAGIC guideline run: successful feedbacks merged batch by batch, each merge on its own
// checkpointed thread, the guideline after each batch written as a snapshot.
import fs from "node:fs";
import path from "node:path";
import { nextThread } from "../../run/question-loop.ts";
import { type RunnableGraph, runThread } from "../../run/question-thread.ts";
import { magicGuidelineManifest } from "../../../graphs/manifests/magic.ts";
import { addUsage, emptyUsage, type Usage } from "../../../state/usage.ts";
import type { MagicRecord } from "../../../state/magic-record.ts";
import type { MagicGuidelineValue, SuccessfulFeedback } from "../../../state/magic.ts";
import type { SqlInput } from "../../../state/sql-state.ts";
import type { Question } from "../../../state/question.ts";
import type { Interaction } from "./guideline-interactions.ts";

/** The guideline after batch `batch`, in the run folder. */
export const snapshotName = (batch: number) => `guideline-batch-${String(batch).padStart(3, "0")}.md`;

/**
 * Merges successful feedbacks into the guideline, batch by batch, in benchmark order: batch n holds the n-th B
 * successes among the questions in file order, so it can be merged once every question up to its last member has
 * finished. Merges run one at a time, each on its own checkpointed thread: a resumed run gets finished merges back
 * from their checkpoints (no model call) and merges the rest.
 */
export class GuidelineMerger {
  merged = 0;
  /** Why a merge could not be made (its reply was unusable): later batches wait, and a resumed run retries it. */
  failure: string | undefined;
  usage: Usage = emptyUsage();
  /** Merge replies that could not replace the guideline, over the merges this run ran or read back. */
  unusableReplies = 0;
  /** Lines of merge replies outside the numbered reminders (chat, stray SQL), dropped; and the merges that had any. */
  stripped = { merges: 0, lines: 0 };
  private guideline = "";
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly graph: RunnableGraph,
    private readonly outDir: string,
    private readonly runId: string,
    private readonly batchSize: number,
    private readonly order: Question[],
    private readonly done: Map<string, MagicRecord>,
    private readonly interactionsFile: string,
  ) {}

  /** Merges every complete batch; with `final`, once all questions are done, the remainder too. */
  advance(final: boolean): Promise<void> {
    this.chain = this.chain.then(async () => {
      const { successes, complete } = this.successes();
      while (!this.failure && successes.length >= (this.merged + 1) * this.batchSize) await this.merge(successes.slice(this.merged * this.batchSize, (this.merged + 1) * this.batchSize));
      if (!this.failure && final && complete && successes.length > this.merged * this.batchSize) await this.merge(successes.slice(this.merged * this.batchSize));
    });
    return this.chain;
  }

  private successes(): { successes: SuccessfulFeedback[]; complete: boolean } {
    const successes: SuccessfulFeedback[] = [];
    for (const q of this.order) {
      const record = this.done.get(q.id);
      // A question not yet run, or one that failed (a resumed run runs it again and it may succeed), holds back every
      // batch after it: batch n is the n-th B successes in file order, and a merged batch never changes.
      if (!record || record.error !== undefined) return { successes, complete: false };
      if (record.corrected && record.feedback !== undefined && record.correctedSql !== undefined) {
        successes.push({ questionId: q.id, question: q.question, evidence: q.evidence, incorrectSql: record.initialSql, correctedSql: record.correctedSql, feedback: record.feedback });
      }
    }
    return { successes, complete: true };
  }

  private async merge(batch: SuccessfulFeedback[]): Promise<void> {
    const batchNo = this.merged + 1;
    const snapshot = path.join(this.outDir, snapshotName(batchNo));
    const fresh = !fs.existsSync(snapshot);
    const input = { graph: magicGuidelineManifest.name, questionId: `batch-${batchNo}`, question: `guideline batch ${batchNo}`, dbPath: "", batchNo, batch, guideline: this.guideline };
    // A merge whose reply was unusable finished its thread without merging: a resumed run retries it on the next
    // thread (`nextThread`, as a question's rerun). Unlike a question, a failed merge leaves no record to take the
    // thread from (no snapshot, and its interactions lines are dropped on resume): its finished threads are read back
    // from the checkpoints, and their tokens and unusable replies still counted.
    let state: MagicGuidelineValue | undefined;
    const base = `magic:${this.runId}:guideline:${String(batchNo).padStart(3, "0")}`;
    for (let thread = base; !state; thread = nextThread(base, thread)) {
      const saved = await this.graph.getState({ configurable: { thread_id: thread } }).catch(() => undefined);
      const values = saved?.values as Partial<MagicGuidelineValue> | undefined;
      const failedBefore = values?.question !== undefined && values.merged === false && saved!.next.length === 0 && saved!.tasks.length === 0;
      if (!failedBefore) state = (await runThread(this.graph, input as SqlInput, thread)) as unknown as MagicGuidelineValue;
      else {
        // An earlier run's attempt (this run merges a batch at most once): its cost is part of the guideline's.
        if (values.usage) this.usage = addUsage(this.usage, values.usage);
        this.unusableReplies += values.unusableReplies ?? 0;
      }
    }
    this.usage = addUsage(this.usage, state.usage);
    this.unusableReplies += state.unusableReplies ?? 0;
    if (state.merged && state.strippedLines) this.stripped = { merges: this.stripped.merges + 1, lines: this.stripped.lines + state.strippedLines };
    if (fresh) {
      const lines = state.calls.map(
        (call): Interaction => ({
          questionId: null,
          agent: call.role,
          node: "merge",
          batch: batchNo,
          prompt: call.messages,
          reply: call.reply,
          success: state.merged,
          ...(call.error ? { error: call.error } : {}),
          inputTokens: call.inputTokens,
          outputTokens: call.outputTokens,
        }),
      );
      fs.appendFileSync(this.interactionsFile, lines.map((l) => `${JSON.stringify(l)}\n`).join(""));
    }
    if (!state.merged) {
      // No snapshot: batch N's snapshot must hold batch N (Table 3), so nothing after it is merged until it is.
      this.failure = `the merge of batch ${batchNo} failed (${state.attempts.at(-1)?.note ?? "unusable reply"})`;
      return;
    }
    this.guideline = state.guideline;
    if (this.guideline.trim()) {
      fs.writeFileSync(snapshot, `${this.guideline.trim()}\n`);
      fs.writeFileSync(path.join(this.outDir, "guideline.md"), `${this.guideline.trim()}\n`);
    }
    this.merged = batchNo;
  }
}
