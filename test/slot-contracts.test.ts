/**
 * A swapped node that misbehaves fails loudly: replacement modules load from anywhere on disk (.ts, .mts, .js, .mjs,
 * with or without a package.json), their Send fan-out reaches its target even when the module was loaded as CommonJS
 * (another copy of LangGraph), and a node that breaks its slot's contract (a Command where the slot routes, the keys
 * its routes read) stops its question with one line naming the slot.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { baselineSpec } from "../graphs/baseline.ts";
import { memoRefineSpec } from "../graphs/memo-refine.ts";
import { loadSlotModules } from "../runner/run/user-modules.ts";
import { answerQuestion, type GraphRunner } from "../runner/run/question-thread.ts";
import type { Question } from "../state/question.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { scriptedProvider } from "./support/scripted-models.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const SHOP = `
CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, city TEXT);
INSERT INTO customers VALUES (1, 'Ada', 'London'), (2, 'Linus', 'Helsinki');
`;
const GIVEN = "SELECT name FROM customers WHERE city = 'London'";

// A seed for memo-refine that fans out to the critic with a Send, as the default does (no project imports: only
// LangGraph, resolved from the module's own folder as a user's would be).
const SEED_MODULE = `
import { Command, Send } from "@langchain/langgraph";
const seed = () => async (state) => {
  const candidate = { id: "initial", sql: state.sql, source: "initial", meta: { order: 0, rounds: 0, final: false, verdicts: [] } };
  const ctx = { questionId: state.questionId, dbId: state.dbId, question: state.question, evidence: state.evidence, dbPath: state.dbPath, schemaText: state.schemaText, linkingText: "" };
  return new Command({ update: { candidates: [candidate] }, goto: new Send("critic", { ctx, candidate, round: 0 }) });
};
export default seed;
`;

let dir: string;
let modules: string;
let dbPath: string;
const executor = createExecutor({ size: 1 });
beforeAll(() => {
  dir = makeTempDir();
  dbPath = makeDb(dir, "shop.sqlite", SHOP);
  // A folder with no package.json (Node takes .ts and .js there for CommonJS); LangGraph resolves through a link.
  modules = fs.mkdtempSync(path.join(dir, "nodes-"));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(modules, "node_modules"), "dir");
});
afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

const critic = () => scriptedProvider({ linker: '{"keywords": []}', critic: '{"wrong": false, "errorTypes": [], "suggestions": ""}' });
const memoInput = (sql = GIVEN) => ({ graph: "memo-refine", questionId: "1", question: "Who lives in London?", evidence: "", dbId: "shop", dbPath, sql });
const question = (): Question => ({ id: "1", dbId: "shop", dbPath, question: "Who lives in London?", evidence: "" });

/**
 * Runs memo-refine with `--node seed=FILE` in a fresh Node process under tsx, as the launcher runs from sources: there
 * Node's own loader decides ESM or CommonJS by the file's folder (vitest's loader would make every module ESM).
 */
function runSeedInNode(file: string): { critic: number; accepted: unknown; sql: string } {
  const script = path.join(modules, "run-seed.mts");
  fs.writeFileSync(
    script,
    `import { loadSlotModules } from ${JSON.stringify(path.join(ROOT, "runner/run/user-modules.ts"))};
import { memoRefineSpec } from ${JSON.stringify(path.join(ROOT, "graphs/memo-refine.ts"))};
import { createExecutor } from ${JSON.stringify(path.join(ROOT, "tools/sqlite/executor.ts"))};
import { scriptedProvider } from ${JSON.stringify(path.join(ROOT, "test/support/scripted-models.ts"))};
const executor = createExecutor({ size: 1 });
const models = scriptedProvider({ linker: '{"keywords": []}', critic: '{"wrong": false, "errorTypes": [], "suggestions": ""}' });
const slots = await loadSlotModules(memoRefineSpec, { seed: process.argv[2] }, process.cwd());
const state = await memoRefineSpec.build({ models, executor }, { slots }).invoke(${JSON.stringify(memoInput())}, { recursionLimit: 50 });
console.log(JSON.stringify({ critic: models.shownTo("critic").length, accepted: state.candidates[0]?.meta?.accepted ?? null, sql: state.sql }));
await executor.close();
`,
  );
  const out = execFileSync(process.execPath, [path.join(ROOT, "node_modules/tsx/dist/cli.mjs"), script, file], { cwd: dir, encoding: "utf8", timeout: 60_000 });
  return JSON.parse(out.trim().split("\n").at(-1)!);
}

describe("--node modules from anywhere on disk", () => {
  for (const ext of ["ts", "mts", "js", "mjs"]) {
    it(`a .${ext} seed outside any package fans out to the critic with Send`, () => {
      const file = path.join(modules, `seed-${ext}.${ext}`);
      fs.writeFileSync(file, ext.endsWith("ts") ? SEED_MODULE.replace("async (state)", "async (state: any)") : SEED_MODULE);
      expect(fs.existsSync(path.join(modules, "package.json"))).toBe(false);
      expect(runSeedInNode(file)).toEqual({ critic: 1, accepted: true, sql: GIVEN });
    }, 60_000);
  }

  it("in this process too (vitest's loader)", async () => {
    const file = path.join(modules, "seed-here.ts");
    fs.writeFileSync(file, SEED_MODULE.replace("async (state)", "async (state: any)"));
    const slots = await loadSlotModules(memoRefineSpec, { seed: file }, dir);
    const models = critic();
    const state = await memoRefineSpec.build({ models, executor }, { slots }).invoke(memoInput(), { recursionLimit: 50 });
    expect(models.shownTo("critic")).toHaveLength(1);
    expect(state.sql).toBe(GIVEN);
  });
});

describe("slot contracts", () => {
  it("a memo-refine vote returning a plain update fails the question, naming the slot and what it must return", async () => {
    const vote = () => async () => ({ sql: "SELECT 1" });
    const graph = memoRefineSpec.build({ models: critic(), executor }, { slots: { vote: vote as never } });
    const runner: GraphRunner = {
      spec: memoRefineSpec,
      graphSpecs: [memoRefineSpec],
      graph,
      deps: { models: critic(), executor },
      initial: { kind: "predictions", file: "given.json", predictions: new Map([["1", GIVEN]]) },
      scenario: "all",
      semantics: "bird",
    };
    const run = await answerQuestion(runner, question(), "vote-plain");
    expect(run.error).toBe("slot 'vote' of graph 'memo-refine' must return a Command routing to __end__ or nowhere (goto: []) while candidates are pending (new Command({ update, goto })); got a plain update");
  });

  it("a node whose update lacks a field its routes read fails likewise (a fix without fixRounds would loop)", async () => {
    const fix = () => async () => ({ sql: "SELECT nope FROM nowhere" });
    const models = scriptedProvider({ generator: "```sql\nSELECT nope FROM nowhere\n```" });
    const graph = baselineSpec.build({ models, executor }, { slots: { fix } });
    const runner: GraphRunner = { spec: baselineSpec, graphSpecs: [baselineSpec], graph, deps: { models, executor }, scenario: "all", semantics: "bird" };
    const run = await answerQuestion(runner, question(), "fix-no-counter");
    expect(run.error).toBe("slot 'fix' of graph 'baseline' must return fixRounds in its update (missing: fixRounds; got keys: sql)");
  });

  it("a node returning something that is no update at all fails, naming the slot", async () => {
    const generate = () => async () => "SELECT 1";
    const graph = baselineSpec.build({ models: scriptedProvider({}), executor }, { slots: { generate: generate as never } });
    await expect(graph.invoke({ graph: "baseline", questionId: "1", question: "?", evidence: "", dbId: "shop", dbPath })).rejects.toThrow(
      "slot 'generate' of graph 'baseline' must return an update (an object of state fields) or a Command; got a string",
    );
  });
});

describe("slot writes and the graph's state", () => {
  it("a replacement writing a field its graph's state lacks stops the question naming the slot and the field (LangGraph would drop it)", async () => {
    const { baselineSpec } = await import("../graphs/baseline.ts");
    const generate = () => async () => ({ sql: "SELECT 1", confidence: 0.9 });
    const graph = baselineSpec.build({ models: critic(), executor }, { slots: { generate: generate as never } });
    await expect(graph.invoke({ question: "Q?", dbPath })).rejects.toThrow("slot 'generate' of graph 'baseline' wrote confidence, which the graph's state lacks");
  });

  it("a default node is held to its declared writes, so the slot reference the guides print stays true", async () => {
    const { checkedNode } = await import("../graphs/spec.ts");
    const node = checkedNode("g", "generate", { writes: ["sql"] }, async () => ({ sql: "SELECT 1", fixRounds: 2, calls: [] }), {}, new Set(["sql", "fixRounds", "calls"]));
    await expect(node({})).rejects.toThrow("slot 'generate' of graph 'g' wrote fixRounds, beyond its declared writes (sql)");
  });

  it("a slot declaring a write its graph's state lacks is refused when the spec is made, naming the field", async () => {
    const { defineSpec } = await import("../graphs/spec.ts");
    const { SqlState } = await import("../state/sql-state.ts");
    const manifest = { name: "mine", summary: "", kind: "generator" as const, slots: { generate: { summary: "", writes: ["sql", "confidence"] } } };
    expect(() => defineSpec(manifest, { state: SqlState, factories: { generate: () => async () => ({}) }, steps: () => 1, build: () => null })).toThrow(
      "graph 'mine': slot 'generate' declares it writes confidence, which the graph's state lacks",
    );
  });
});
