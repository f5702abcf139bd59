/**
 * What `sqlmend experiment` checks before it spends (issue 31, points 3–5): every run's flags through its command's
 * own checks, the files its options and `initial` name; `--sample N --sample-seed S` (eval, experiment, the pilot) a
 * seeded sample stratified by database; `--ids` stay on the dev runs; `--set initial=FILE` scores FILE as the initial
 * run and the correctors read it. Against the scripted local server (every agent role: test/support/method-agents.ts).
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import type { OpenAIServer } from "./support/openai-server.ts";
import { agentsFixture, resultsOf, runCli } from "./support/cli.ts";
import { stratifiedSample } from "../runner/run/question-sample.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;

const sqlmend = (...args: string[]) => runCli(args, dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") });
const write = (name: string, body: unknown) => {
  fs.writeFileSync(path.join(dir, name), typeof body === "string" ? body : JSON.stringify(body));
  return name;
};
const dbOf = (id: string) => dev.find((q) => q.id === id)!.dbId;
const countBy = (ids: string[]) => ids.reduce<Record<string, number>>((a, id) => ({ ...a, [dbOf(id)]: (a[dbOf(id)] ?? 0) + 1 }), {});

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev, server } = await agentsFixture(dir));
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

describe("experiment: checked before anything is spent", () => {
  it("a run whose flags its command would refuse is refused before the first run, by --dry-run, --pilot and the run alike, naming the run and the flag", async () => {
    // gen takes --max-fix-rounds; as-given has no fix slot, so eval refuses it there: run 2 of 2.
    const recipe = write("two.json", { name: "two", runs: { gen: { graph: "baseline" }, given: { graph: "as-given", initial: "gen" } } });
    const before = server.requests.length;
    for (const extra of [["--dry-run"], ["--dry-run", "--pilot", "2"], []]) {
      const run = await sqlmend("experiment", recipe, "--bench", benchDir, "--out", "two", "--limit", "2", "--max-fix-rounds", "1", ...extra);
      expect([extra.join(" "), run.code]).toEqual([extra.join(" "), 2]);
      expect(run.err).toMatch(/^sqlmend experiment: runs\.given: --max-fix-rounds applies to graphs with a 'fix' slot, not as-given/m);
    }
    expect(server.requests.length - before).toBe(0);
    expect(fs.existsSync(path.join(dir, "two"))).toBe(false);
    // The case: ts-sql-table4 with --coder-models, which its baseline row ("w/o all") does not take.
    const table4 = await sqlmend("experiment", "ts-sql-table4", "--bench", benchDir, "--out", "t4", "--dry-run", "--coder-models", "a,b");
    expect(table4.code).toBe(2);
    expect(table4.err).toMatch(/^sqlmend experiment: runs\.no-all: --coder-models is an option of ts-sql, ts-sql-refine, not of baseline$/m);
    // A value the command's own check refuses (not the recipe's zod schema): an r3 option out of range.
    const range = await sqlmend("experiment", write("range.json", { name: "range", runs: { gen: { graph: "baseline" }, r: { graph: "r3", options: { "k-shot": -1 } } } }), "--bench", benchDir, "--out", "range", "--dry-run");
    expect(range.code).toBe(2);
    expect(range.err).toMatch(/^sqlmend experiment: runs\.r: --k-shot takes a number >= 0, not '-1'$/m);
  });

  it("a missing guideline file, a missing --set file and an initial that names no run nor file are refused by --dry-run", async () => {
    const guideline = await sqlmend("experiment", write("g.json", { name: "g", runs: { gen: { graph: "baseline" }, m: { graph: "magic", initial: "gen", options: { guideline: "nowhere.md" } } } }), "--bench", benchDir, "--out", "g", "--dry-run");
    expect(guideline.code).toBe(1);
    expect(guideline.err).toMatch(/^sqlmend experiment: runs\.m: --guideline nowhere\.md: no such file/m);
    const set = await sqlmend("experiment", "magic-table2", "--bench", benchDir, "--out", "t2", "--dry-run", "--set", "guideline-wang=missing.md");
    expect(set.code).toBe(1);
    expect(set.err).toMatch(/^sqlmend experiment: runs\.human-wang: --guideline missing\.md: no such file/m);
    const dangling = await sqlmend("experiment", write("d.json", { name: "d", runs: { gen: { graph: "baseline" }, fix: { graph: "repair", initial: "gen2" } } }), "--bench", benchDir, "--out", "d", "--dry-run");
    expect(dangling.code).toBe(1);
    expect(dangling.err).toMatch(/^sqlmend experiment: runs\.fix: initial 'gen2': neither a run of the recipe nor a predictions file/m);
    // A guideline a run of the recipe writes is not there yet: that passes the dry run.
    const later = await sqlmend("experiment", "magic-table2", "--bench", benchDir, "--out", "t2", "--dry-run");
    expect(later.code, later.err).toBe(0);
  });
});

describe("--sample N --sample-seed S", () => {
  it("eval: the same questions for a seed, each database its largest-remainder share, another seed other questions; in run.json, and --resume holds it", async () => {
    const ids = async (out: string, ...flags: string[]) => {
      const run = await sqlmend("eval", "baseline", "--bench", benchDir, "--out", out, ...flags);
      expect(run.code, run.err).toBe(0);
      return [...(await resultsOf(path.join(dir, out))).keys()].sort();
    };
    const a = await ids("s1", "--sample", "10", "--sample-seed", "3");
    const b = await ids("s2", "--sample", "10", "--sample-seed", "3");
    const c = await ids("s3", "--sample", "10", "--sample-seed", "4");
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    // dev: school 7, shop 7, music 6 of 20 → 3.5, 3.5, 3: floors 3, 3, 3 and the one left to the first by name of
    // the two equal remainders (school).
    expect(countBy(a)).toEqual({ school: 4, shop: 3, music: 3 });
    expect(countBy(c)).toEqual({ school: 4, shop: 3, music: 3 });
    // 6 of 20 → 2.1, 2.1, 1.8: music's remainder is the largest.
    expect(countBy(await ids("s4", "--sample", "6"))).toEqual({ school: 2, shop: 2, music: 2 });
    const runJson = JSON.parse(fs.readFileSync(path.join(dir, "s1", "run.json"), "utf8"));
    expect(runJson.sample).toMatchObject({ n: 10, seed: 3, method: expect.stringMatching(/^stratified by database/) });
    const other = await sqlmend("eval", "baseline", "--bench", benchDir, "--out", "s1", "--sample", "10", "--sample-seed", "4", "--resume");
    expect(other.code).toBe(1);
    expect(other.err).toMatch(/--resume: .*s1: sample\.seed was 3, now 4/);
    const same = await sqlmend("eval", "baseline", "--bench", benchDir, "--out", "s1", "--sample", "10", "--sample-seed", "3", "--resume");
    expect(same.code, same.err).toBe(0);
    expect(fs.readFileSync(path.join(dir, "s1", "report.md"), "utf8")).toMatch(/sample.*10 questions, --sample-seed 3/);
    const lone = await sqlmend("eval", "baseline", "--bench", benchDir, "--out", "s5", "--sample-seed", "3");
    expect([lone.code, lone.err.split("\n")[0]]).toEqual([2, "sqlmend eval: --sample-seed S goes with --sample N (the seed of a stratified sample)"]);
  }, 120_000);

  it("the pick depends on the seed and the ids, not on the order the file lists them", () => {
    const forward = stratifiedSample(dev, 7, 11).map((q) => q.id).sort();
    const backward = stratifiedSample([...dev].reverse(), 7, 11).map((q) => q.id).sort();
    expect(backward).toEqual(forward);
    expect(stratifiedSample(dev, 50, 1)).toHaveLength(dev.length);
  });

  it("--dry-run --pilot N runs a sample across the databases, not the first N questions (one database on minibench)", async () => {
    const recipe = write("pilot.json", { name: "pilot", runs: { gen: { graph: "baseline" } } });
    const dry = await sqlmend("experiment", recipe, "--bench", benchDir, "--out", "p", "--dry-run", "--pilot", "3", "--checkpoints", "p.sqlite");
    expect(dry.code, dry.err.slice(-2000)).toBe(0);
    const pilotIds = [...(await resultsOf(path.join(dir, "p", "pilot", "gen"))).keys()];
    expect(countBy(pilotIds)).toEqual({ school: 1, shop: 1, music: 1 });
    expect(JSON.parse(fs.readFileSync(path.join(dir, "p", "pilot", "gen", "run.json"), "utf8")).sample).toMatchObject({ n: 3, seed: 1 });
    // An experiment's own --sample: every run on it, the dry run counts it, table.json records it.
    const sampled = await sqlmend("experiment", recipe, "--bench", benchDir, "--out", "ps", "--sample", "6", "--sample-seed", "2", "--checkpoints", "p.sqlite");
    expect(sampled.code, sampled.err.slice(-2000)).toBe(0);
    expect(countBy([...(await resultsOf(path.join(dir, "ps", "gen"))).keys()])).toEqual({ school: 2, shop: 2, music: 2 });
    expect(JSON.parse(fs.readFileSync(path.join(dir, "ps", "table.json"), "utf8")).sample).toMatchObject({ n: 6, seed: 2 });
  }, 120_000);
});

describe("--ids and --set initial in an experiment", () => {
  it("--ids select dev questions; a guideline run on the train split runs without them, said in one line", async () => {
    const recipe = write("ids.json", { name: "ids", runs: { guide: { kind: "magic-guideline" }, gen: { graph: "baseline" } } });
    const dry = await sqlmend("experiment", recipe, "--bench", benchDir, "--out", "i", "--ids", "15,16", "--limit", "2", "--dry-run");
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(/^ {2}--ids are dev questions: guide \(train\) runs without them, on --limit 2 of its split$/m);
    expect(dry.out).toMatch(/^\s+guide\s+magic guideline\s+train: 2 questions/m);
    expect(dry.out).toMatch(/^\s+gen\s+baseline\s+dev: 2 questions/m);
    const run = await sqlmend("experiment", recipe, "--bench", benchDir, "--out", "i", "--ids", "15,16", "--limit", "2", "--checkpoints", "i.sqlite");
    expect(run.code, run.err.slice(-2000)).toBe(0);
    expect(run.err).toContain("sqlmend experiment ids: --ids are dev questions: guide (train) runs without them, on --limit 2 of its split\n");
    expect([...(await resultsOf(path.join(dir, "i", "gen"))).keys()].sort()).toEqual(["15", "16"]);
    // The guideline learnt from the first two train questions, not train questions 15 and 16.
    const trained = fs.readFileSync(path.join(dir, "i", "guide", "results.jsonl"), "utf8").trim().split("\n").map((l) => (JSON.parse(l) as { id: string }).id).sort();
    expect(trained).toEqual(["0", "1"]);
  }, 300_000);

  it("--set initial=FILE: the initial run is not run, its row scores the file as given, and the correctors read the file's SQL", async () => {
    // The file: gold SQL, except question 1's, which fails to execute (repair then fixes it).
    const byId = new Map(dev.map((q) => [q.id, q.id === "1" ? "SELECT nope FROM nowhere" : q.goldSql!]));
    write("din.json", Object.fromEntries([...byId].map(([id, sql]) => [id, `${sql}\t----- bird -----\t${dbOf(id)}`])));
    const recipe = write("init.json", { name: "init", description: "Repair on some initial SQL.", runs: { initial: { graph: "baseline" }, fix: { graph: "repair", initial: "initial", correct: "all" } } });
    const dry = await sqlmend("experiment", recipe, "--bench", benchDir, "--out", "si", "--limit", "4", "--set", "initial=din.json", "--dry-run");
    expect(dry.code, dry.err).toBe(0);
    expect(dry.out).toMatch(/^\s+initial\s+as-given on .*din\.json, --correct all\s+dev: 4 questions/m);
    const missing = await sqlmend("experiment", recipe, "--bench", benchDir, "--out", "si", "--limit", "4", "--set", "initial=gone.json", "--dry-run");
    expect([missing.code, /runs\.initial: initial '.*gone\.json': neither a run of the recipe nor a predictions file/.test(missing.err)]).toEqual([1, true]);
    const noInitial = await sqlmend("experiment", write("none.json", { name: "none", runs: { gen: { graph: "baseline" } } }), "--bench", benchDir, "--out", "n", "--set", "initial=din.json", "--dry-run");
    expect(noInitial.err).toMatch(/--set initial=FILE: recipe none has no run 'initial' whose SQL its correctors read/);
    // A built-in row that said its initial SQL was the baseline's names the file instead.
    const magic = await sqlmend("experiment", "magic-table2", "--bench", benchDir, "--out", "m2", "--limit", "2", "--set", "initial=din.json", "--dry-run");
    expect(magic.code, magic.err).toBe(0);
    expect(magic.out).toMatch(/magic\b.*differs: initial SQL: din\.json \(--set initial\)/);
    expect(magic.out).not.toContain("sqlmend's baseline (run initial)");

    const before = server.requests.length;
    const run = await sqlmend("experiment", recipe, "--bench", benchDir, "--out", "si", "--limit", "4", "--set", "initial=din.json", "--checkpoints", "si.sqlite");
    expect(run.code, run.err.slice(-2000)).toBe(0);
    // No generator ran: the initial row is the file, scored as given, with no calls.
    const table = JSON.parse(fs.readFileSync(path.join(dir, "si", "table.json"), "utf8"));
    const initial = table.rows.find((r: { run: string }) => r.run === "initial");
    expect([initial.graph, initial.calls, initial.ex]).toEqual(["as-given", 0, 75]);
    expect(fs.readFileSync(path.join(dir, "si", "table.md"), "utf8")).toMatch(/The initial SQL is din\.json \(--set initial\), scored as given: run initial did not run baseline, and 1 correctors read the file\./);
    // The corrector's initial SQL is the file's, question by question.
    const fixed = await resultsOf(path.join(dir, "si", "fix"));
    for (const [id, record] of fixed) expect([id, record.initialSql]).toEqual([id, byId.get(id)]);
    // The only model calls are repair's fix of question 1 (nothing generated the initial SQL).
    const asked = server.requests.slice(before);
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.every((r) => /nope FROM nowhere/.test(JSON.stringify(r.messages)))).toBe(true);
  }, 300_000);
});
