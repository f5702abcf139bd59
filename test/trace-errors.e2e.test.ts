/**
 * Errors and spend are kept (issue 37, point 2), and `--graph FILE` threads open (point 1): a node of a user's graph
 * module that throws leaves its slot, class, message and stack (the module's own file:line first) in results.jsonl,
 * in its thread (`readThread`, `inspect`) — also inside a `Send` fan-out and for a validation error LangGraph raises
 * after the node returned; the failed question keeps the calls and tokens it spent and report.md counts them. The
 * thread reads with its module, and from the checkpoints alone once the module is gone. Real launcher, real
 * ChatOpenAI client against the local server, real SQLite checkpoints.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { readRun, readThread } from "../runner/trace/read-trace.ts";
import { goldResponder, minibenchFixture, resultsOf, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LIBRARY = JSON.stringify(path.join(ROOT, "index.ts"));

/**
 * A user's graph: baseline with a `check` slot after generation. On the first question its helper reads a field
 * that is not there (a TypeError at a known line); on the second it writes a count of the wrong type (LangGraph's
 * validation error, raised after the node returned); on the others it passes.
 */
const BOOM_GRAPH = `import { END, START, StateGraph, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { defineGraph, routeAfterExecute, SHARED_SLOTS, SqlInputState, sqlStateFields } from ${LIBRARY};

const CheckState = new StateSchema({ ...sqlStateFields, checked: z.number().int().default(0) });

function planOf(state) {
  return state.plan.sql; // line 8: state.plan is undefined
}

const check = () => async (state) => {
  if (state.questionId === "FIRST") return { sql: planOf(state) };
  if (state.questionId === "SECOND") return { checked: "many" };
  return { checked: 1 };
};

export default defineGraph({
  name: "checked-baseline",
  summary: "baseline with a check after generation",
  kind: "generator",
  state: CheckState,
  slots: {
    schema: SHARED_SLOTS.schema,
    generate: SHARED_SLOTS.generate,
    check: { summary: "check the SQL", reads: ["sql"], writes: ["sql", "checked"], factory: check },
    execute: SHARED_SLOTS.execute,
    fix: SHARED_SLOTS.fix,
  },
  steps: (o) => 4 + 2 * (o.maxFixRounds ?? 3),
  outcome: { of: (state) => ({ checked: state.checked }) },
  wire: ({ node, options: o }) =>
    new StateGraph(CheckState, { input: SqlInputState })
      .addNode("schema", node("schema"))
      .addNode("generate", node("generate"))
      .addNode("check", node("check"))
      .addNode("execute", node("execute"))
      .addNode("fix", node("fix"))
      .addEdge(START, "schema")
      .addEdge("schema", "generate")
      .addEdge("generate", "check")
      .addEdge("check", "execute")
      .addConditionalEdges("execute", routeAfterExecute(o.maxFixRounds), ["fix", END])
      .addEdge("fix", "execute"),
});
`;

/** self-consistency's sample slot replaced: the second of the fan-out's branches throws. */
const BOOM_SAMPLE = `export default () => async (payload) => {
  if (payload.index === 1) throw new RangeError("boom in sample " + payload.index); // line 2
  await new Promise((resolve) => setTimeout(resolve, 50));
  return { candidates: [] };
};
`;

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;

const env = () => ({ OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" });
const model = () => ["--model", "m", "--base-url", server.url, "--max-retries", "0"];

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  fs.writeFileSync(path.join(dir, "boom-graph.mts"), BOOM_GRAPH.replace('"FIRST"', JSON.stringify(dev[0]!.id)).replace('"SECOND"', JSON.stringify(dev[1]!.id)));
  fs.writeFileSync(path.join(dir, "boom-sample.mts"), BOOM_SAMPLE);
  server = await startOpenAIServer({ respond: goldResponder(dev) });
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

describe("a node that throws keeps its slot, class, stack and spend", () => {
  it("in results.jsonl, report.md, readThread and inspect; the thread opens with its module and without it", async () => {
    const out = path.join(dir, "boom");
    const run = await runCli(["eval", "--graph", "boom-graph.mts", "--bench", benchDir, "--out", out, "--limit", "3", ...model()], dir, env());
    expect(run.code).toBe(3); // two questions failed
    const results = await resultsOf(out);
    const first = results.get(dev[0]!.id)!;
    expect(first.failure).toBe("the graph could not finish: slot 'check': Cannot read properties of undefined (reading 'sql')");
    expect(first.errorDetail).toMatchObject({ slot: "check", errorClass: "TypeError", message: "Cannot read properties of undefined (reading 'sql')", at: expect.stringMatching(/boom-graph\.mts:8:\d+$/) });
    // The user's frame comes first in the stack.
    expect((first.errorDetail as { stack: string }).stack.split("\n")[1]).toMatch(/boom-graph\.mts:8:\d+/);
    // What it spent before the throw (generate's call) is kept.
    expect(first).toMatchObject({ calls: 1, inputTokens: 100, outputTokens: 10 });
    const second = results.get(dev[1]!.id)!;
    expect(second.failure).toMatch(/^the graph could not finish: slot 'check': Validation failed for field "checked"/);
    expect(second.errorDetail).toMatchObject({ slot: "check" });
    expect(results.get(dev[2]!.id)!.correct).toBe(true);

    const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(report).toMatch(/Spent on failed questions .*: 2 model calls, 200 input \/ 20 output tokens, in 2 questions/);
    expect(report).toContain(`| \`${first.thread as string}\` |`);

    const runView = await readRun(out);
    expect(runView.graphModule?.path).toBe(path.join(dir, "boom-graph.mts"));
    expect(runView.summary.byVerdict).toMatchObject({ failed: 2, right: 1 });
    expect(runView.summary.failedCost).toMatchObject({ calls: 2, inputTokens: 200, outputTokens: 20 });
    expect(runView.questions[0]!.error).toMatchObject({ slot: "check", errorClass: "TypeError" });

    const thread = await readThread(first.thread as string, { run: out, env: env(), cwd: dir });
    expect(thread).toMatchObject({ graph: "checked-baseline", readAs: "graph", finished: false });
    expect(thread.error).toMatchObject({ slot: "check", errorClass: "TypeError", at: expect.stringMatching(/boom-graph\.mts:8:\d+$/) });
    expect(thread.steps.map((s) => s.slots)).toEqual([["schema"], ["generate"], ["check"]]);
    expect(thread.steps.at(-1)).toMatchObject({ pending: true, error: { slot: "check" } });

    const shown = await runCli(["inspect", first.thread as string, "--run", out], dir, env());
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toContain("failed in slot 'check'");
    expect(shown.out).toMatch(/Error in slot 'check': TypeError: Cannot read properties of undefined \(reading 'sql'\)\n\s+at \S*boom-graph\.mts:8:\d+/);
    expect(shown.out).toMatch(/^\s+2\s+generate\s+sql=.*\[1 model call: generator 100\/10 tok\]/m);

    // A built-in's name given for it: its own slots still show (not "(no change)" for every step).
    const asBaseline = await runCli(["inspect", results.get(dev[2]!.id)!.thread as string, "--graph", "baseline"], dir, env());
    expect(asBaseline.code, asBaseline.err).toBe(0);
    expect(asBaseline.out).toMatch(/^Note: the thread was run by graph 'checked-baseline', not 'baseline'/m);
    expect(asBaseline.out).toMatch(/^\s+3\s+check\s+checked=1$/m);

    // ask --graph FILE prints an inspect hint that works.
    const db = dev[2]!.dbPath;
    const asked = await runCli(["ask", "--graph", "boom-graph.mts", "--db", db, "--thread", "asked-1", ...model(), dev[2]!.question], dir, env());
    expect(asked.code, asked.err).toBe(0);
    const hint = /\(sqlmend (inspect [^)]*)\)/.exec(asked.out)![1]!.split(" ");
    expect(hint).toEqual(["inspect", "asked-1", "--graph", "boom-graph.mts"]);
    const hinted = await runCli(hint, dir, env());
    expect(hinted.code, hinted.err).toBe(0);
    expect(hinted.out).toMatch(/^Thread asked-1 \(graph checked-baseline\) — finished/m);
    expect(hinted.out).toMatch(/^\s+3\s+check\s+checked=1$/m);

    // The module gone: the thread still opens, read from its checkpoints alone, its steps and error as before.
    fs.renameSync(path.join(dir, "boom-graph.mts"), path.join(dir, "boom-graph.mts.gone"));
    try {
      const generic = await readThread(first.thread as string, { run: out, env: env(), cwd: dir });
      expect(generic.readAs).toBe("generic");
      expect(generic.note).toMatch(/boom-graph\.mts is gone/);
      expect(generic.steps.map((s) => s.slots)).toEqual([["schema"], ["generate"], ["check"]]);
      expect(generic.steps[1]!.calls[0]).toMatchObject({ role: "generator", inputTokens: 100 });
      expect(generic.error).toMatchObject({ slot: "check", errorClass: "TypeError", at: expect.stringMatching(/boom-graph\.mts:8:\d+$/) });
      const finished = await readThread(results.get(dev[2]!.id)!.thread as string, { run: out, env: env(), cwd: dir });
      expect(finished.steps.map((s) => s.slots)).toEqual([["schema"], ["generate"], ["check"], ["execute"]]);
      expect(finished.finished).toBe(true);
      expect(finished.steps[2]!.writes).toEqual({ check: { checked: 1 } });
    } finally {
      fs.renameSync(path.join(dir, "boom-graph.mts.gone"), path.join(dir, "boom-graph.mts"));
    }
  }, 90_000);

  it("inside a Send fan-out the branch that threw is named: slot, class, the module's line", async () => {
    const out = path.join(dir, "fanout");
    const run = await runCli(["eval", "multiple-prompt", "--initial", "baseline", "--samples", "3", "--node", "sample=boom-sample.mts", "--bench", benchDir, "--out", out, "--ids", dev[0]!.id, ...model()], dir, env());
    expect(run.code).toBe(3);
    const record = (await resultsOf(out)).get(dev[0]!.id)!;
    expect(record.failure).toBe("the graph could not finish: slot 'sample': boom in sample 1");
    expect(record.errorDetail).toMatchObject({ slot: "sample", errorClass: "RangeError", message: "boom in sample 1", at: expect.stringMatching(/boom-sample\.mts:2:\d+$/) });
    // The initial run's call is part of what the failed question spent.
    expect(record).toMatchObject({ calls: 1, inputTokens: 100 });
    const thread = await readThread(record.thread as string, { run: out, env: env(), cwd: dir });
    expect(thread.error).toMatchObject({ slot: "sample", errorClass: "RangeError" });
    const last = thread.steps.at(-1)!;
    expect(last.pending).toBe(true);
    expect(last.slots.every((s) => s === "sample")).toBe(true);
    const shown = await runCli(["inspect", record.thread as string, "--run", out], dir, env());
    expect(shown.out).toMatch(/Error in slot 'sample': RangeError: boom in sample 1\n\s+at \S*boom-sample\.mts:2:\d+/);
  }, 90_000);
});
