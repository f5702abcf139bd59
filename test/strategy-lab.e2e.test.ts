/**
 * The strategy lab through the launcher (issue 26, points 3 and 5): a graph of one's own in one file (`--graph FILE`,
 * made with `defineGraph`) runs like a built-in — options, outcome, report, run.json; a `--node` module declares
 * options of its own, which become flags, `--help` lines and settings; a replaced slot's own options go with it
 * (magic's `correct` swapped: no `--guideline`, nothing recorded about one). Real launcher, real ChatOpenAI client,
 * the local OpenAI-compatible server.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { goldResponder, minibenchFixture, resultsOf, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { tidyGraphModule } from "./support/user-modules.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const LIBRARY = JSON.stringify(path.join(ROOT, "index.ts"));

/** A user's graph in one file: baseline's nodes plus a slot of its own with its own state field, option and outcome. */
const TIDY_GRAPH = tidyGraphModule(path.join(ROOT, "index.ts"));

/** A replacement for the tidy slot declaring a knob of its own. */
const TIDY_NODE = `
import { defineOptions, readOptions } from ${LIBRARY};
export const options = defineOptions({ suffixCheck: { type: "int", default: 0, min: 0, help: "characters of SQL kept at most (0: all)" } });
export default (_deps, opts) => async (state) => {
  const { suffixCheck } = readOptions(options, opts);
  return { sql: state.sql.trim().replace(/;+$/, ""), tidied: 100 + suffixCheck };
};
`;

/** magic's correct slot replaced: keeps the initial SQL, reads no guideline. */
const KEEP_NODE = `export default () => async (state) => ({ sql: state.sql, initialSql: state.sql });`;

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  // The modules import LangGraph and zod as a user's would: from node_modules beside them.
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"), "dir");
  fs.writeFileSync(path.join(dir, "tidy-graph.mts"), TIDY_GRAPH);
  fs.writeFileSync(path.join(dir, "tidy-node.mts"), TIDY_NODE);
  fs.writeFileSync(path.join(dir, "keep.mts"), KEEP_NODE);
  // Gold SQL with a trailing semicolon: the tidy node is what makes it one statement.
  const gold = goldResponder(dev);
  server = await startOpenAIServer({ respond: (req) => {
    const reply = gold(req) as { content: string };
    return { ...reply, content: reply.content.replace(/\n```$/, ";\n```") };
  } });
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

const env = () => ({ OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" });
const model = () => ["--model", "m", "--base-url", server.url, "--max-retries", "0", "--limit", "4"];
const runJson = (out: string) => JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")) as { graph: string; settings: Record<string, unknown> };

describe("--graph FILE: a graph of one's own runs like a built-in", () => {
  it("eval runs it: answers scored, its outcome in results.jsonl and report.md, its options in run.json", async () => {
    const out = path.join(dir, "tidy");
    const run = await runCli(["eval", "--graph", "tidy-graph.mts", "--bench", benchDir, "--out", out, "--tidy-rounds", "2", ...model()], dir, env());
    expect(run.err).not.toMatch(/error/i);
    expect(run.code).toBe(0);
    const results = [...(await resultsOf(out)).values()];
    expect(results).toHaveLength(4);
    expect(results.every((r) => r.correct === true)).toBe(true);
    expect(results.every((r) => (r.outcome as { tidied: number }).tidied === 2)).toBe(true);
    const recorded = runJson(out);
    expect(recorded.graph).toBe("tidy-baseline");
    expect(recorded.settings["tidy-rounds"]).toBe(2);
    expect(recorded.settings.graph).toMatchObject({ path: path.join(dir, "tidy-graph.mts"), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });
    expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toMatch(/tidied: mean 2\.00/);

    // Replayed from its own slot with a swapped node: the prefix (schema, generate) is reused, nothing is asked again.
    const before = server.requests.length;
    const replay = await runCli(["replay", out, "--from", "tidy", "--node", "tidy=tidy-node.mts", "--out", path.join(dir, "tidy-replay"), ...model().slice(0, 6)], dir, env());
    expect(replay.err).not.toMatch(/error/i);
    expect(replay.code).toBe(0);
    expect(server.requests.length).toBe(before);
    const replayed = [...(await resultsOf(path.join(dir, "tidy-replay"))).values()];
    expect(replayed.map((r) => (r.outcome as { tidied: number }).tidied)).toEqual([100, 100, 100, 100]);

    // An edited graph module never joins the run: --resume refuses in one line, naming it.
    const copy = path.join(dir, "tidy-graph-copy.mts");
    fs.writeFileSync(copy, `${TIDY_GRAPH}\n// edited\n`);
    const out2 = path.join(dir, "tidy2");
    expect((await runCli(["eval", "--graph", "tidy-graph-copy.mts", "--bench", benchDir, "--out", out2, ...model()], dir, env())).code).toBe(0);
    fs.appendFileSync(copy, "// edited again\n");
    const resumed = await runCli(["eval", "--graph", "tidy-graph-copy.mts", "--bench", benchDir, "--out", out2, "--resume", ...model()], dir, env());
    expect(resumed.code).toBe(1);
    expect(resumed.err).toMatch(/the --graph module .*tidy-graph-copy.mts changed since the run started/);
  }, 60_000);

  it("an experiment recipe names it by file, beside a built-in: one table, its options checked before anything runs", async () => {
    fs.writeFileSync(path.join(dir, "lab.yaml"), "name: lab\nruns:\n  base: {graph: baseline, options: {max-fix-rounds: 0}}\n  tidy: {graph: tidy-graph.mts, options: {tidy-rounds: 3}}\n");
    const out = path.join(dir, "lab");
    const run = await runCli(["experiment", "lab.yaml", "--bench", benchDir, "--out", out, "--limit", "2", "--model", "m", "--base-url", server.url, "--max-retries", "0"], dir, env());
    expect(run.code).toBe(0);
    const table = JSON.parse(fs.readFileSync(path.join(out, "table.json"), "utf8")) as { rows: { run: string; ex: number | null }[] };
    // The gold SQL ends in ';' here: baseline's answer is two statements' worth of text, the tidy graph's is not.
    expect(table.rows.find((r) => r.run === "tidy")?.ex).toBe(100);
    expect(JSON.parse(fs.readFileSync(path.join(out, "tidy", "run.json"), "utf8")).settings["tidy-rounds"]).toBe(3);
    fs.writeFileSync(path.join(dir, "typo.yaml"), "name: typo\nruns:\n  tidy: {graph: tidy-graph.mts, options: {tidy-round: 3}}\n");
    const typo = await runCli(["experiment", "typo.yaml", "--bench", benchDir, "--out", path.join(dir, "typo"), "--dry-run"], dir, env());
    expect(typo.code).toBe(1);
    expect(typo.err).toMatch(/--tidy-round is not an option of tidy-graph.mts/);
  }, 120_000);

  it("its options are its own: --help lists them, a bad value is one usage line, a graph name beside it is refused", async () => {
    const help = await runCli(["eval", "--graph", "tidy-graph.mts", "--help"], dir, env());
    expect(help.out).toMatch(/Options of tidy-baseline:\n\s+--tidy-rounds N\s+times the tidy node strips the SQL \(default 1\)/);
    const bad = await runCli(["eval", "--graph", "tidy-graph.mts", "--bench", benchDir, "--out", path.join(dir, "bad"), "--tidy-rounds=-1"], dir, env());
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--tidy-rounds takes a number >= 0/);
    const both = await runCli(["eval", "baseline", "--graph", "tidy-graph.mts", "--bench", benchDir, "--out", path.join(dir, "both")], dir, env());
    expect(both.code).toBe(2);
    expect(both.err).toMatch(/name a graph or give --graph tidy-graph.mts, not both/);
    const missing = await runCli(["eval", "--graph", "nope.mts", "--bench", benchDir, "--out", path.join(dir, "none")], dir, env());
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/cannot load graph module nope.mts: no such file/);
  }, 60_000);
});

describe("--node modules declare their own options; a replaced slot's options go", () => {
  it("a module's option is a flag, validated, in --help and run.json; without the module the flag is unknown", async () => {
    const out = path.join(dir, "tidy-node");
    const run = await runCli(["eval", "--graph", "tidy-graph.mts", "--node", "tidy=tidy-node.mts", "--suffix-check", "7", "--bench", benchDir, "--out", out, ...model()], dir, env());
    expect(run.code).toBe(0);
    const results = [...(await resultsOf(out)).values()];
    expect(results.every((r) => (r.outcome as { tidied: number }).tidied === 107)).toBe(true);
    expect(runJson(out).settings["suffix-check"]).toBe(7);
    const help = await runCli(["eval", "--graph", "tidy-graph.mts", "--node", "tidy=tidy-node.mts", "--help"], dir, env());
    expect(help.out).toMatch(/--suffix-check N\s+characters of SQL kept at most/);
    const bad = await runCli(["eval", "--graph", "tidy-graph.mts", "--node", "tidy=tidy-node.mts", "--suffix-check", "x", "--bench", benchDir, "--out", path.join(dir, "x")], dir, env());
    expect(bad.err).toMatch(/--suffix-check takes a whole number/);
    const without = await runCli(["eval", "baseline", "--suffix-check", "7", "--bench", benchDir, "--out", path.join(dir, "y")], dir, env());
    expect(without.code).toBe(2);
    expect(without.err).toMatch(/Unknown option '--suffix-check'/);
  }, 60_000);

  it("magic with its correct slot replaced needs no --guideline and records none; giving one names the slot", async () => {
    const out = path.join(dir, "magic-keep");
    const run = await runCli(["eval", "magic", "--node", "correct=keep.mts", "--bench", benchDir, "--out", out, ...model()], dir, env());
    expect(run.err).not.toMatch(/guideline/);
    expect(run.code).toBe(0);
    const settings = runJson(out).settings;
    expect(Object.keys(settings).filter((k) => /guideline|corrector-evidence/.test(k))).toEqual([]);
    expect(settings.node).toMatchObject({ correct: { path: path.join(dir, "keep.mts"), sha256: expect.any(String) } });
    const given = await runCli(["eval", "magic", "--node", "correct=keep.mts", "--guideline", "g.md", "--bench", benchDir, "--out", path.join(dir, "g")], dir, env());
    expect(given.code).toBe(2);
    expect(given.err).toMatch(/--guideline is read by slot 'correct' of magic, which --node replaces: drop it/);
    const plain = await runCli(["eval", "magic", "--bench", benchDir, "--out", path.join(dir, "plain")], dir, env());
    expect(plain.err).toMatch(/magic needs --guideline FILE/);
  }, 60_000);

  it("a replacement for a slot the graph lacks is one line listing its slots", async () => {
    const run = await runCli(["eval", "baseline", "--node", "generte=keep.mts", "--bench", benchDir, "--out", path.join(dir, "z")], dir, env());
    expect(run.code).toBe(1);
    expect(run.err).toMatch(/graph 'baseline' has no slot 'generte' \(slots: link, schema, generate, execute, fix\)/);
  });
});
