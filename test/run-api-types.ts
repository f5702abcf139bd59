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
