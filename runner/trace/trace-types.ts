/**
 * The trace API's types: what `readRun` and `readThread` (runner/trace/read-trace.ts) return. The CLI (`inspect`, `threads`), the
 * run explorer (`sqlmend view`) and notebooks read runs through these and nothing else. Plain JSON-safe data only.
 */

/** A question's verdict in a run: right or wrong against the gold, failed (no answer of the method's), skipped, or not scored (no gold). */
export type Verdict = "right" | "wrong" | "failed" | "skipped" | "unscored";

/** A node's error as it was kept: the slot that threw, the error's class and message, and the stack (the user module's frames first). */
export interface StepError {
  slot?: string;
  /** The error's class name (`TypeError`, `SlotContractError`, `ZodError`, ...). */
  errorClass: string;
  message: string;
  /** The stack as thrown, a user module's own frames first when it came from `--node`/`--graph` code. */
  stack?: string;
  /** The first frame in the user's own module (file:line:column), when the thrower was user code. */
  at?: string;
}

/** What a question cost: sent calls, tokens, latency; cached and reused calls apart. */
export interface QuestionCost {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  cachedCalls?: number;
  reusedCalls?: number;
  failedCalls?: number;
}

/** One question of a run, as `readRun` returns it. */
export interface RunQuestion {
  id: string;
  dbId: string;
  difficulty?: string;
  question: string;
  evidence?: string;
  verdict: Verdict;
  /** The final SQL ("" when none). */
  sql: string;
  /** Correctors: the SQL before correction, its gold verdict, and whether the correction was applied or why not. */
  initialSql?: string;
  initialCorrect?: boolean;
  correction?: string;
  /** Why the question failed (one line), and the thrown error when a node threw. */
  failure?: string;
  error?: StepError;
  predError?: string;
  cost: QuestionCost;
  iterations: number;
  /** What the question went through (results.jsonl's `outcome`): flat values. */
  outcome?: Record<string, string | number | boolean | null>;
  /** The thread that holds its steps (`readThread(threadId, ...)`); a corrector's initial run is `${threadId}/initial`. */
  threadId: string;
  /** `sqlmend replay`: the original thread and checkpoint this answer forked from. */
  replay?: { from: string; originalThread: string; checkpointId: string; prefixSteps: number; originalCorrect?: boolean };
}

/** A run folder as `readRun` returns it. */
export interface RunView {
  dir: string;
  runId: string;
  graph: string;
  /** `--graph FILE` runs: the module's path and sha256 as run.json records them. */
  graphModule?: { path: string; sha256?: string };
  /** `--node SLOT=FILE` swaps: slot → module path. */
  nodeModules?: Record<string, string>;
  kind?: "generator" | "corrector";
  bench: string | null;
  split: string;
  semantics: string;
  /** Model names by role as run.json records them. */
  models: Record<string, unknown>;
  settings: Record<string, unknown>;
  /** Where the threads were checkpointed (a file path, or a PostgreSQL URL without its password). */
  checkpoints?: string;
  /** A replay: the run it replayed and the slot it forked at. */
  replayOf?: { dir: string; runId?: string; slot?: string };
  /** run.json says a mock model answered: not a measurement. */
  mock?: boolean;
  questions: RunQuestion[];
  /** Counts by verdict, and EX over the scored questions with its 95 % Wilson interval. */
  summary: {
    selected: number;
    byVerdict: Record<Verdict, number>;
    ex?: { correct: number; scored: number; pct: number; low: number; high: number };
    /** What failed questions cost (they are not answers, but their tokens were spent). */
    failedCost: QuestionCost;
    totalCost: QuestionCost;
    /** Selected questions with no record yet (a stopped run: `--resume` runs them). */
    notRun?: number;
  };
  /** results.jsonl lines that did not read. */
  droppedLines: number;
}

/** One model call of a step. */
export interface TraceCall {
  role: string;
  model: string;
  node?: string;
  messages: { role: string; content: string }[];
  reply: string;
  inputTokens: number;
  outputTokens: number;
  latencyMs: number;
  method?: string;
  cached?: boolean;
  reused?: boolean;
  error?: string;
  /** Served by the response cache: what the stored reply had cost. */
  savedInputTokens?: number;
  savedOutputTokens?: number;
}

/** A change of one state field between two steps. */
export interface FieldDiff {
  field: string;
  /** "added" (absent before), "removed", or "changed". */
  change: "added" | "removed" | "changed";
  before?: unknown;
  after?: unknown;
}

/** The gold's verdict on a step that changed the SQL. */
export interface StepGold {
  sql: string;
  correct: boolean;
  /** The first step whose SQL was right; a step that turned a right SQL wrong; the last step that changed the SQL. */
  marks: ("first-right" | "broke" | "fixed" | "last")[];
  error?: string;
}

/** One superstep of a thread. */
export interface TraceStep {
  /** LangGraph's step number (1 for the first node step). */
  step: number;
  checkpointId: string;
  /** The nodes (slots) that ran in it; a Send fan-out repeats a name (`review`, `review`). */
  slots: string[];
  /** The roles of the model calls made in it. */
  roles: string[];
  /** Fields each task wrote, by node name (`review#2` for the second of a fan-out), calls and usage left out. */
  writes: Record<string, Record<string, unknown>>;
  /** The full state after the step (only when `readThread(..., { state: true })`). */
  state?: Record<string, unknown>;
  /** What changed from the state before the step. */
  diff: FieldDiff[];
  calls: TraceCall[];
  /** `execution` as the step left it, when the step wrote one. */
  execution?: { ok: boolean; rowCount?: number; columns?: string[]; rows?: unknown[][]; error?: string; errorKind?: string };
  /** The SQL after the step, when the step changed it. */
  sql?: string;
  /** A node of the step threw (kept from the thread's error write and the question's record). */
  error?: StepError;
  /** Where gold was asked for (`readThread(..., { gold })`) and the step changed the SQL. */
  gold?: StepGold;
  next: string[];
  createdAt?: string;
  /** The step did not complete: its tasks' writes were saved but no checkpoint followed (a node threw, or the run was killed). */
  pending?: boolean;
}

/** A thread as `readThread` returns it. */
export interface ThreadView {
  threadId: string;
  graph?: string;
  /** How its steps were named: from the graph (built-in or a `--graph` module) or read generically from the checkpoints. */
  readAs: "graph" | "generic";
  finished: boolean;
  next: string[];
  question?: string;
  dbId?: string;
  /** Correctors: the SQL the thread was given. */
  initialSql?: string;
  finalSql?: string;
  /** The final state (full). */
  state: Record<string, unknown>;
  steps: TraceStep[];
  /** A node threw and the thread stopped there. */
  error?: StepError;
  /** A replay's thread: the original thread and checkpoint it forked from, and how many steps it reused. */
  forkedFrom?: { threadId: string; checkpointId: string; prefixSteps: number };
  /** With gold: the first step that was right, the step that broke a right answer, the last step that changed the SQL. */
  goldSummary?: { firstRight?: number; broke?: number[]; last?: number; finalCorrect?: boolean };
  /** A finished thread's outcome (as results.jsonl records it), when its graph was loaded. */
  outcome?: Record<string, string | number | boolean | null>;
  /** Why the thread was read generically, or anything else the reader had to fall back on. */
  note?: string;
  /** Where the thread was read from (a file, or a PostgreSQL URL without its password). */
  checkpoints?: string;
  /** With gold: why no verdict could be given (no gold SQL, the question is not in the benchmark, ...). */
  goldNote?: string;
}

export interface ReadThreadOptions {
  /** The checkpoint store (file path, PostgreSQL URL, or an opened saver); default the data directory's checkpoints.sqlite. */
  checkpoints?: string;
  /** The run folder it belongs to: its run.json names the graph module, the checkpoint store and the replay's origin. */
  run?: string;
  /** Include the full state after each step (heavier). */
  state?: boolean;
  /** Compute a gold verdict for each step that changed the SQL (cached beside the run). */
  gold?: boolean;
}
