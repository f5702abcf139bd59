// Type tests of the run API's graph names and options (checked by `npm run typecheck`, not run): a misspelt option or
// graph name, or a value of the wrong kind, does not compile (each @ts-expect-error fails tsc once it would).
import type { GraphOptionsOf, BuiltInGraphName } from "../graphs/registry.ts";
import { ask, benchInfo, cacheClear, exec, link, merge } from "../index.ts";
const a: GraphOptionsOf<"r3"> = { reviewers: 2, maxReviewTurns: 3 };
// @ts-expect-error misspelt
const b: GraphOptionsOf<"r3"> = { reviwers: 2 };
// @ts-expect-error wrong kind
const c: GraphOptionsOf<"r3"> = { reviewers: "two" };
const d: GraphOptionsOf<"ts-sql"> = { coderModels: ["a", "b"] };
const n: BuiltInGraphName = "baseline";
// @ts-expect-error misspelt
const m: BuiltInGraphName = "basline";
type K = keyof GraphOptionsOf<"memo-sql">;
const k: K[] = ["noIcl"];

// The explore and upkeep functions (issue 38 point 6): closed options, each value of its kind.
const x1 = () => exec({ db: "a.sqlite", sql: "SELECT 1", maxRows: 5, timeoutMs: 1000 });
// @ts-expect-error misspelt
const x2 = () => exec({ db: "a.sqlite", sql: "SELECT 1", maxRow: 5 });
// @ts-expect-error wrong kind: a number of rows, not text
const x3 = () => exec({ db: "a.sqlite", sql: "SELECT 1", maxRows: "all" });
// @ts-expect-error the statement is required
const x4 = () => exec({ db: "a.sqlite" });
const b1 = () => benchInfo({ bench: "minibench" });
// @ts-expect-error misspelt
const b2 = () => benchInfo({ dbdir: "dbs", questions: "q.jsonl" });
// @ts-expect-error wrong kind: a record where one value goes
const b3 = () => benchInfo({ bench: { dir: "x" } });
const c1 = () => cacheClear({ model: "gpt-4o", before: "2026-01-01" });
// @ts-expect-error misspelt
const c2 = () => cacheClear({ models: "gpt-4o" });
// @ts-expect-error wrong kind: a switch
const c3 = () => cacheClear({ all: "yes" });
const g1 = () => merge({ shards: ["s1", "s2"], out: "merged" });
// @ts-expect-error misspelt
const g2 = () => merge({ shards: ["s1"], out: "merged", outDir: "x" });
// @ts-expect-error wrong kind: the out folder is one value
const g3 = () => merge({ shards: ["s1"], out: ["a", "b"] });
const l1 = () => link({ db: "a.sqlite", question: "q", keywords: ["x", "y"], roleModel: { linker: "m" }, structuredMethod: "jsonMode" });
// @ts-expect-error misspelt
const l2 = () => link({ db: "a.sqlite", question: "q", keyword: "x" });
// @ts-expect-error wrong kind: a record where one value goes
const l3 = () => link({ db: "a.sqlite", question: "q", model: { name: "x" } });
// @ts-expect-error not a structured method
const l4 = () => link({ db: "a.sqlite", question: "q", structuredMethod: "xml" });
// @ts-expect-error linking asks without the response cache
const l5 = () => link({ db: "a.sqlite", question: "q", cache: "off" });
const q1 = () => ask({ graph: "r3", db: "a.sqlite", question: "q", thread: "t", maxFixRounds: 1, roleModel: { critic: "m" }, options: { reviewers: 2 } });
const q2 = () => ask({ graphModule: "./my-graph.ts", db: "a.sqlite", question: "q", node: { generate: () => async () => ({}) } });
// @ts-expect-error misspelt option
const q3 = () => ask({ graph: "baseline", db: "a.sqlite", question: "q", evidance: "x" });
// @ts-expect-error misspelt graph
const q4 = () => ask({ graph: "basline", db: "a.sqlite", question: "q" });
// @ts-expect-error misspelt graph option
const q5 = () => ask({ graph: "r3", db: "a.sqlite", question: "q", options: { reviwers: 2 } });
// @ts-expect-error wrong kind: a record where one value goes
const q6 = () => ask({ graph: "baseline", db: "a.sqlite", question: "q", model: { name: "x" } });
// @ts-expect-error the question is required
const q7 = () => ask({ graph: "baseline", db: "a.sqlite" });
export { x1, x2, x3, x4, b1, b2, b3, c1, c2, c3, g1, g2, g3, l1, l2, l3, l4, l5, q1, q2, q3, q4, q5, q6, q7 };

// runEval and replay take a closed, typed config: every option of their command, a misspelt one refused, a value
// of the wrong kind refused.
import type { EvalOptions } from "../runner/eval/run-eval.ts";
import type { ReplayOptions } from "../runner/replay/run-replay.ts";
const e1: EvalOptions = { graph: "r3", bench: "minibench", out: "o", limit: 5, ids: [1, "2"], temperature: 0.2, roleModel: { critic: "m" }, maxFixRounds: 2, cache: "off", semantics: "spider", options: { reviewers: 2 } };
const e2: EvalOptions = { graphModule: "./my-graph.ts", out: "o", node: { generate: () => async () => ({}) }, structuredMethod: "jsonMode", correct: "errors" };
// @ts-expect-error misspelt option
const e3: EvalOptions = { graph: "baseline", out: "o", limt: 5 };
// @ts-expect-error a record where one value goes
const e4: EvalOptions = { graph: "baseline", out: "o", model: { name: "x" } };
// @ts-expect-error a number takes a number, not a boolean
const e5: EvalOptions = { graph: "baseline", out: "o", maxFixRounds: true };
// @ts-expect-error not a declared choice
const e6: EvalOptions = { graph: "baseline", out: "o", semantics: "sqlite" };
// @ts-expect-error a graph's own option is checked against the graph's declaration
const e7: EvalOptions<"r3"> = { graph: "r3", out: "o", options: { reviewrs: 2 } };
// @ts-expect-error out is required
const e8: EvalOptions = { graph: "baseline", bench: "minibench" };
const r1: ReplayOptions = { run: "runs/a", from: "review", out: "o", only: "wrong", ids: ["1"], node: { review: "./strict.ts" }, model: "m", seed: 3 };
// @ts-expect-error misspelt option
const r2: ReplayOptions = { run: "runs/a", from: "review", out: "o", onyl: "wrong" };
// @ts-expect-error not a declared choice
const r3: ReplayOptions = { run: "runs/a", from: "review", out: "o", only: "some" };
// @ts-expect-error replay's graph options are the run's: no options of its own
const r4: ReplayOptions = { run: "runs/a", from: "review", out: "o", options: { reviewers: 2 } };
// @ts-expect-error a number where a list of swaps goes
const r5: ReplayOptions = { run: "runs/a", from: "review", out: "o", node: 3 };
export { a, b, c, d, n, m, k, e1, e2, e3, e4, e5, e6, e7, e8, r1, r2, r3, r4, r5 };

// score, compare, runExperiment and loadBenchmark: closed options from their declarations (SCORE_CONFIG, ...).
import type { ScoreOptions } from "../runner/score/score-predictions.ts";
import type { CompareOptions } from "../runner/score/run-compare.ts";
import type { ExperimentOptions } from "../runner/experiment/run-experiment.ts";
import type { loadBenchmark } from "../runner/run/load-benchmark.ts";
type BenchmarkOptions = Parameters<typeof loadBenchmark>[0];
const ps1: ScoreOptions = { bench: "minibench", split: "dev", pred: "gold", semantics: "spider", metrics: ["ex", "ves"], timeoutMs: 1000, onlyPredicted: true };
// @ts-expect-error misspelt
const ps2: ScoreOptions = { pred: "gold", semantcs: "bird" };
// @ts-expect-error not a declared choice
const ps3: ScoreOptions = { pred: "gold", semantics: "sql" };
// @ts-expect-error a switch is true or false
const ps4: ScoreOptions = { pred: "gold", json: "yes" };
// @ts-expect-error a whole number, not text
const ps5: ScoreOptions = { pred: "gold", concurrency: "2" };
// @ts-expect-error pred is required
const ps6: ScoreOptions = { bench: "minibench" };
const pc1: CompareOptions = { runs: ["a", "b"], show: 5, price: [1, 2], html: "c.html" };
// @ts-expect-error misspelt
const pc2: CompareOptions = { runs: ["a", "b"], shw: 5 };
// @ts-expect-error a record where one value goes
const pc3: CompareOptions = { runs: ["a", "b"], html: { file: "x" } };
// @ts-expect-error the runs are required
const pc4: CompareOptions = { json: true };
const px1: ExperimentOptions = { recipe: "correctors", bench: "minibench", out: "o", dryRun: true, set: { initial: "x.json" }, hold: ["initial"], repeats: 2, priceIn: 1, priceOut: 2, model: "mock" };
// @ts-expect-error misspelt
const px2: ExperimentOptions = { recipe: "r", dryrun: true };
// @ts-expect-error a whole number, not a switch
const px3: ExperimentOptions = { recipe: "r", repeats: true };
// @ts-expect-error set is a record of NAME=VALUE
const px4: ExperimentOptions = { recipe: "r", set: true };
// @ts-expect-error the recipe is required
const px5: ExperimentOptions = { bench: "minibench" };
// @ts-expect-error an option every run gets keeps its kind (temperature is a number)
const px6: ExperimentOptions = { recipe: "r", temperature: "hot" };
// @ts-expect-error and its choices
const px7: ExperimentOptions = { recipe: "r", structuredMethod: "xml" };
const pb1: BenchmarkOptions = { bench: "minibench", split: "train" };
// @ts-expect-error not a split
const pb2: BenchmarkOptions = { bench: "minibench", split: "dve" };
// @ts-expect-error misspelt
const pb3: BenchmarkOptions = { bnch: "minibench" };
export { ps1, ps2, ps3, ps4, ps5, ps6, pc1, pc2, pc3, pc4, px1, px2, px3, px4, px5, px6, px7, pb1, pb2, pb3 };

// The methods' run functions and the memory's (learnGuideline, buildMemory, writeCandidates, auditGold, memoAdd,
// memoShow, memoSearch): closed, typed options, as their commands declare them.
import type { AuditOptions, CandidatesOptions, GuidelineOptions, MemoAddOptions, MemoryBuildOptions, MemoSearchOptions, MemoShowOptions } from "../index.ts";
const mg1: GuidelineOptions = { bench: "minibench", out: "o", initial: "baseline", batch: 5, maxIter: 3, noManager: true, roleModel: { feedback: "m" }, semantics: "bird", sample: 20, options: { maxIter: 2 } };
// @ts-expect-error misspelt option
const mg2: GuidelineOptions = { bench: "minibench", out: "o", maxIters: 3 };
// @ts-expect-error the cycle runs on every failure: no `correct`
const mg3: GuidelineOptions = { bench: "minibench", out: "o", correct: "all" };
// @ts-expect-error a whole number, not text
const mg4: GuidelineOptions = { bench: "minibench", out: "o", batch: "ten" };
// @ts-expect-error the cycle's graph is magic-feedback: no `graph`
const mg5: GuidelineOptions = { bench: "minibench", out: "o", graph: "r3" };
const mb1: MemoryBuildOptions = { bench: "minibench", out: "m.sqlite", elicit: "pipeline", samples: 4, sampleTemperature: 0.8, queryTimeoutMs: 1000, embeddingModel: "e", resume: true };
// @ts-expect-error misspelt option
const mb2: MemoryBuildOptions = { bench: "minibench", out: "m.sqlite", sampels: 4 };
// @ts-expect-error not a declared choice
const mb3: MemoryBuildOptions = { bench: "minibench", out: "m.sqlite", elicit: "guess" };
// @ts-expect-error a memory build keeps no checkpoints
const mb4: MemoryBuildOptions = { bench: "minibench", out: "m.sqlite", checkpoints: "memory" };
const mw1: CandidatesOptions = { run: "runs/memo", out: "c.json", checkpoints: "memory" };
// @ts-expect-error candidates are every question's: no selection
const mw2: CandidatesOptions = { run: "runs/memo", out: "c.json", limit: 3 };
const mt1: AuditOptions = { bench: "minibench", out: "o", checkpoints: "memory", node: { vote: "./vote.ts" }, concurrency: 2, options: { maxDataRounds: 2 } };
// @ts-expect-error the audit revises nothing: no maxRevisions
const mt2: AuditOptions = { bench: "minibench", out: "o", maxRevisions: 2 };
// @ts-expect-error the audit generates nothing: no fewShot
const mt3: AuditOptions = { bench: "minibench", out: "o", fewShot: 2 };
// @ts-expect-error TS-SQL's own options are checked against ts-sql-refine's declaration
const mt4: AuditOptions = { bench: "minibench", out: "o", options: { maxDataRound: 2 } };
const ma1: MemoAddOptions = { memory: "m.sqlite", db: "d.sqlite", question: "q", wrong: "SELECT 1", correct: "SELECT 2", evidence: "e", model: "mock", roleModel: { labeler: "m" } };
// @ts-expect-error misspelt option
const ma2: MemoAddOptions = { memory: "m.sqlite", db: "d.sqlite", questoin: "q", wrong: "SELECT 1", correct: "SELECT 2" };
// @ts-expect-error the wrong SQL is required
const ma3: MemoAddOptions = { memory: "m.sqlite", db: "d.sqlite", question: "q", correct: "SELECT 2" };
const ms1: MemoShowOptions = { memory: "m.sqlite", entries: 5, embeddingModel: "e" };
// @ts-expect-error a whole number, not text
const ms2: MemoShowOptions = { memory: "m.sqlite", entries: "5" };
const mq1: MemoSearchOptions = { memory: "m.sqlite", question: "q", sql: "SELECT 1", retrieval: "top4", excludeId: "3" };
// @ts-expect-error not a retrieval mode
const mq2: MemoSearchOptions = { memory: "m.sqlite", question: "q", retrieval: "best" };
// @ts-expect-error the question is required
const mq3: MemoSearchOptions = { memory: "m.sqlite", sql: "SELECT 1" };
export { mg1, mg2, mg3, mg4, mg5, mb1, mb2, mb3, mb4, mw1, mw2, mt1, mt2, mt3, mt4, ma1, ma2, ma3, ms1, ms2, mq1, mq2, mq3 };
