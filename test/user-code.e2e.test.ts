/**
 * A researcher's own code is known by all of it (issue 38, points 1 and 5): a `--node` module's identity covers the
 * files it imports, a replay records module hashes and sqlmend's code like eval, a refused resume names what
 * changed; a `steps()` that undercounts a loop is named as such, a swapped node that never ran is counted, and a slot
 * that declares it reads a field its state lacks is refused when the graph is built. Real launcher, real ChatOpenAI
 * client, the local OpenAI-compatible server.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StateSchema } from "@langchain/langgraph";
import { defineManifest } from "../graphs/manifests/manifest.ts";
import { defineSpec } from "../graphs/spec.ts";
import { sqlStateFields } from "../state/sql-state.ts";
import { moduleIdentity } from "../tools/version.ts";
import { goldServerFixture, resultsOf, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer } from "./support/openai-server.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LIBRARY = JSON.stringify(path.join(ROOT, "index.ts"));

/** A generate node whose prompt lives in a helper file beside it, as sqlmend keeps its own prompts. */
const PROMPTED_NODE = `
import { PREFIX } from "./prompt-helper.ts";
export default () => async (state) => ({ sql: "SELECT 1", attempts: [{ node: "generate", sql: "SELECT 1", ok: true, note: PREFIX }] });
`;

/** A loop whose steps() counts one round: LangGraph's recursion limit ends it, which must point at steps(). */
const LOOPING_GRAPH = `
import { END, START, StateGraph, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { defineGraph, SqlInputState, sqlStateFields } from ${LIBRARY};

const LoopState = new StateSchema({ ...sqlStateFields, laps: z.number().int().default(0) });
const lap = () => async (state) => ({ laps: state.laps + 1 });

export default defineGraph({
  name: "laps",
  summary: "a loop of 100 laps whose steps() counts one",
  kind: "generator",
  state: LoopState,
  slots: { lap: { summary: "one lap", reads: ["laps"], writes: ["laps"], factory: lap } },
  steps: () => 1,
  calls: () => ({ min: 0, max: 0 }),
  wire: ({ node }) =>
    new StateGraph(LoopState, { input: SqlInputState })
      .addNode("lap", node("lap"))
      .addEdge(START, "lap")
      .addConditionalEdges("lap", (s) => (s.laps < 100 ? "lap" : END), ["lap", END]),
});
`;

let dir: string;
let benchDir: string;
let server: OpenAIServer;

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, server } = await goldServerFixture(dir));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

const env = () => ({ OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" });
const model = () => ["--model", "m", "--base-url", server.url, "--max-retries", "0"];
const listing = (folder: string) => Object.fromEntries(fs.readdirSync(folder).map((f) => [f, fs.readFileSync(path.join(folder, f), "utf8")]));

describe("a module's identity is its whole import closure", () => {
  it("records every local file and package it imports; a changed helper changes it", () => {
    const folder = path.join(dir, "closure");
    fs.mkdirSync(path.join(folder, "prompts"), { recursive: true });
    fs.writeFileSync(path.join(folder, "node.mts"), `import { z } from "zod";\nimport { A } from "./prompts/a.js";\nexport * from "./b";\nexport default () => async () => ({ sql: A });\n`);
    fs.writeFileSync(path.join(folder, "prompts", "a.ts"), `export { B as A } from "../b.ts";\n`);
    fs.writeFileSync(path.join(folder, "b.ts"), `export const B = "SELECT 1";\n`);
    const before = moduleIdentity(path.join(folder, "node.mts"));
    expect(Object.keys(before.files ?? {}).sort()).toEqual(["b.ts", "node.mts", "prompts/a.ts"]);
    expect(before.packages).toEqual({ zod: expect.stringMatching(/^\d+\.\d+/) });
    fs.appendFileSync(path.join(folder, "b.ts"), "// edited\n");
    expect(moduleIdentity(path.join(folder, "node.mts")).sha256).not.toBe(before.sha256);
  });

  it("eval --resume after an edit of a file the --node module imports is refused in one line naming that file", async () => {
    fs.writeFileSync(path.join(dir, "prompt-helper.ts"), `export const PREFIX = "first prompt";\n`);
    fs.writeFileSync(path.join(dir, "prompted.ts"), PROMPTED_NODE);
    const out = path.join(dir, "helper-run");
    const args = ["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "2", "--checkpoints", "memory", "--node", "generate=prompted.ts", ...model()];
    expect((await runCli(args, dir, env())).code).toBe(0);
    const recorded = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")).settings.node.generate;
    expect(Object.keys(recorded.files)).toEqual(expect.arrayContaining(["prompted.ts", "prompt-helper.ts"]));

    fs.writeFileSync(path.join(dir, "prompt-helper.ts"), `export const PREFIX = "second prompt";\n`);
    const before = listing(out);
    const resumed = await runCli([...args, "--resume"], dir, env());
    expect(resumed.code).toBe(1);
    expect(resumed.err.trim().split("\n")).toHaveLength(1);
    expect(resumed.err).toMatch(/--resume: .*helper-run: the --node generate module .*prompted\.ts changed since the run started \(prompt-helper\.ts\) \(sha256 [0-9a-f]{12}…, now [0-9a-f]{12}…\)/);
    expect(listing(out)).toEqual(before);
  }, 60_000);
});

describe("a replay knows the code it ran", () => {
  it("records sqlmend's code, the questions and each swapped module's hash; --resume after a module edit is refused naming it", async () => {
    const original = path.join(dir, "to-replay");
    const checkpoints = path.join(dir, "replay-ckpt.sqlite");
    expect((await runCli(["eval", "baseline", "--bench", benchDir, "--out", original, "--limit", "3", "--checkpoints", checkpoints, ...model()], dir, env())).code).toBe(0);
    const module = path.join(dir, "other-generate.mjs");
    fs.writeFileSync(module, `export default () => async () => ({ sql: "SELECT 2", attempts: [{ node: "generate", sql: "SELECT 2", ok: true }] });\n`);
    const out = path.join(dir, "replayed");
    const args = ["replay", original, "--from", "generate", "--node", `generate=${module}`, "--out", out, "--checkpoints", checkpoints, ...model()];
    const first = await runCli(args, dir, env());
    expect(first.code, first.err).toBe(0);
    const run = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8"));
    expect(run.code).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(Object.keys(run.questionHashes)).toHaveLength(3);
    expect(run.settings.node.generate).toMatchObject({ sha256: moduleIdentity(module).sha256 });
    // The same bytes resume.
    expect((await runCli([...args, "--resume"], dir, env())).code).toBe(0);

    fs.writeFileSync(module, `export default () => async () => ({ sql: "SELECT 3", attempts: [{ node: "generate", sql: "SELECT 3", ok: true }] });\n`);
    const before = listing(out);
    const resumed = await runCli([...args, "--resume"], dir, env());
    expect(resumed.code).toBe(1);
    expect(resumed.err).toMatch(/--resume: .*replayed: the --node generate module .*other-generate\.mjs changed since the run started/);
    expect(listing(out)).toEqual(before);
  }, 90_000);
});

describe("diagnostics that point at the cause", () => {
  it("a steps() that undercounts a loop fails its question naming steps() and the node that looped", async () => {
    fs.writeFileSync(path.join(dir, "laps-graph.mts"), LOOPING_GRAPH);
    const out = path.join(dir, "laps");
    const run = await runCli(["eval", "--graph", "laps-graph.mts", "--bench", benchDir, "--out", out, "--limit", "1", "--checkpoints", "memory", ...model()], dir, env());
    expect(run.code).toBe(3);
    const [record] = [...(await resultsOf(out)).values()];
    expect(record!.failure).toMatch(/graph 'laps' ran past its step bound \(recursion limit 25: the spec's steps\(options\) plus a margin\); in thread '.*' 'lap' \d+ times: its steps\(\) undercounts a loop/);
    expect(record!.failure).not.toMatch(/recursionLimit/);
  }, 60_000);

  it("a swapped node that ran in none of the questions is counted and said in report.md", async () => {
    // Gold SQL executes: the fix slot is never reached.
    fs.writeFileSync(path.join(dir, "my-fix.mjs"), `export default () => async (state) => ({ sql: state.sql, fixRounds: state.fixRounds + 1 });\n`);
    fs.writeFileSync(path.join(dir, "my-generate.mjs"), `export default () => async () => ({ sql: "SELECT 1" });\n`);
    const out = path.join(dir, "never-ran");
    const run = await runCli(["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "2", "--checkpoints", "memory", "--node", "fix=my-fix.mjs", "--node", "generate=my-generate.mjs", ...model()], dir, env());
    expect(run.code, run.err).toBe(0);
    const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(report).toContain("- `--node fix`: ran in 0 of 2 questions — **it never ran**");
    expect(report).toContain("- `--node generate`: ran in 2 of 2 questions\n");
    expect([...(await resultsOf(out)).values()].map((r) => r.swappedRan)).toEqual([["generate"], ["generate"]]);
  }, 60_000);

  it("a slot declaring it reads a field the state lacks is refused when the graph is built", () => {
    const manifest = defineManifest({ name: "typo", summary: "a typo in reads", kind: "generator", slots: { write: { summary: "writes SQL", reads: ["questoin"], writes: ["sql"] } } });
    const state = new StateSchema({ ...sqlStateFields });
    expect(() => defineSpec(manifest, { state, factories: { write: () => async () => ({ sql: "" }) }, steps: () => 1, build: () => undefined })).toThrow(
      /graph 'typo': slot 'write' declares it reads questoin, which the graph's state lacks/,
    );
  });
});

describe("a graph of one's own goes where built-ins go", () => {
  it("graphs --slots --options --graph FILE lists the module's graph, its slots and its options", async () => {
    fs.writeFileSync(path.join(dir, "laps-graph.mts"), LOOPING_GRAPH);
    const run = await runCli(["graphs", "--slots", "--options", "--graph", "laps-graph.mts"], dir, env());
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/^laps\s+generator\s+a loop of 100 laps whose steps\(\) counts one\s+\(laps-graph\.mts\)\n\s+slot lap: one lap\n/);
    expect(run.out).not.toMatch(/^baseline/m);
  }, 30_000);

  it("experiment --dry-run estimates a run naming a graph file by the module's declared calls", async () => {
    fs.writeFileSync(path.join(dir, "laps-graph.mts"), LOOPING_GRAPH);
    fs.writeFileSync(path.join(dir, "laps-recipe.json"), JSON.stringify({ name: "laps-recipe", runs: { base: { graph: "baseline" }, laps: { graph: "./laps-graph.mts" } } }));
    const run = await runCli(["experiment", "laps-recipe.json", "--bench", benchDir, "--out", "laps-exp", "--dry-run", ...model()], dir, env());
    expect(run.code, run.err).toBe(0);
    expect(run.out).toMatch(/laps/);
    expect(run.err).not.toMatch(/registry/);
    expect(fs.existsSync(path.join(dir, "laps-exp", "laps"))).toBe(false);
  }, 30_000);
});
