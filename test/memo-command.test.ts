/**
 * `sqlmend memo build|add|show|search` through the launcher, against the local OpenAI-compatible server and the
 * project's minibench: what the build keeps, how labels are validated, resuming after a kill, dynamic additions.
 */
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import type { CliIO } from "../cli/shared/command.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { MemoryStore } from "../tools/retrieval/memory-store.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type ChatRequestRecord, type OpenAIServer, type ScriptedReply, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
let dir: string;
let benchDir: string;
let train: Question[];
let dev: Question[];
let server: OpenAIServer;
/** Sampler requests for this question hang (to kill the build mid-question). */
let hangOn: string | undefined;

const lastUser = (req: ChatRequestRecord) => req.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
/** The question asked: the last one a prompt shows (exemplars and memory cases come before it). */
const questionOf = (req: ChatRequestRecord) => [...req.messages.map((m) => m.content).join("\n").matchAll(/Question: (.*)/g)].at(-1)?.[1]?.trim() ?? "";
const sql = (s: string): ScriptedReply => ({ content: `\`\`\`sql\n${s}\n\`\`\`` });
const isLabeler = (req: ChatRequestRecord) => req.messages[0]?.content.startsWith("You review SQL mistakes") ?? false;

/** Train question i: i%3==0 → one of each (gold, failing, wrong non-empty, wrong empty); 1 → all gold; 2 → all failing. */
function respond(req: ChatRequestRecord): ScriptedReply {
  const system = req.messages[0]?.content ?? "";
  // memo-sql's and memo-refine's roles (the eval and ask runs below): answer with the dev question's gold.
  if (system.startsWith("You are a strict reviewer")) return { content: '{"wrong": false, "errorTypes": [], "suggestions": ""}' };
  if (system.startsWith("You pick out")) return { content: '{"keywords": ["title"]}' };
  if (system.startsWith("You plan")) return { content: '{"simple": false, "fits": true, "subQuestions": ["first part", "second part"]}' };
  if (system.startsWith("You check intermediate")) return { content: '{"problem": false, "issue": ""}' };
  const d = dev.find((x) => x.question === questionOf(req));
  if (d) return sql(d.goldSql!);
  const q = train.find((x) => x.question === questionOf(req));
  if (!q) return sql("SELECT 1");
  if (isLabeler(req)) {
    // First an error type outside the taxonomy; after the re-ask, valid types in the paper's spelling.
    return lastUser(req).includes("not usable")
      ? { content: JSON.stringify({ errorTypes: ["Filter Condition Error", "E4"], suggestions: "Filter on the right column and select what is asked." }) }
      : { content: JSON.stringify({ errorTypes: ["typo_error"], suggestions: "?" }) };
  }
  const i = train.indexOf(q);
  // memo-sql's solver and writers (memo build --elicit pipeline): the nested style goes wrong on questions 0, 3, ...
  if (lastUser(req).includes("Now write one SQLite query")) return sql(i % 3 === 0 && lastUser(req).includes("nested subqueries") ? "SELECT 12345" : q.goldSql!);
  if (lastUser(req).includes("Now step")) return sql(q.goldSql!);
  const variant = ["most direct", "explicit JOINs", "subqueries", "WITH clause"].findIndex((a) => lastUser(req).includes(a));
  const reply = i % 3 === 1 ? sql(q.goldSql!) : i % 3 === 2 ? sql("SELECT nope FROM nowhere") : sql([q.goldSql!, "SELECT nope FROM nowhere", "SELECT 12345", `${q.goldSql} LIMIT 0`][variant]!);
  return q.question === hangOn ? { ...reply, delayMs: 60_000 } : reply;
}

// These tests count what reaches the scripted server: no response cache.
function io(): { io: CliIO; out: () => string; err: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    io: { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_CACHE: "off" }, cwd: dir, isTTY: false },
    out: () => out.join(""),
    err: () => err.join(""),
  };
}

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  train = (await loadBenchmark(benchDir, { split: "train" })).questions;
  dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
  server = await startOpenAIServer({ respond });
});
afterAll(async () => {
  await server.close();
  removeTempDir(dir);
});

describe("memo build", () => {
  it("keeps one executable-but-wrong query per question, labels it with validated types, and summarises", async () => {
    const file = path.join(dir, "memory.sqlite");
    const run = io();
    const code = await main(["memo", "build", "--bench", benchDir, "--out", file, "--limit", "6", "--samples", "4", "--concurrency", "2"], run.io);
    expect(run.err()).not.toMatch(/failed/);
    expect(code).toBe(0);
    const store = MemoryStore.open(file);
    const entries = store.entries();
    // Questions 0 and 3 have wrong-but-executable candidates; 1 and 4 were all right; 2 and 5 never executed.
    const sourceOf = (q: Question) => `${q.dbId}/${q.id}`;
    expect(entries.map((e) => e.sourceId).sort()).toEqual([sourceOf(train[0]!), sourceOf(train[3]!)].sort());
    for (const e of entries) {
      expect(e.wrongSql).toBe("SELECT 12345"); // executes, wrong, non-empty: preferred to the empty LIMIT 0 variant
      expect(e.goldSql).toBe(train.find((q) => sourceOf(q) === e.sourceId)!.goldSql);
      expect(e.errorTypes).toEqual(["filter_condition_error", "select_output_error"]);
      expect(e.skeleton).toBe("SELECT ?");
    }
    expect(store.stats().done).toEqual({ entry: 2, "all-correct": 2, "none-executable": 2 });
    store.close();
    // The unknown type was sent back with the validation error, once per entry.
    const labels = server.requests.filter(isLabeler);
    expect(labels).toHaveLength(4);
    expect(lastUser(labels.find((r) => lastUser(r).includes("not usable"))!)).toMatch(/errorTypes/);
    expect(run.out()).toMatch(/Questions: 6 selected, 6 done \(6 this run\)\n/);
    expect(run.out()).toMatch(/Entries: 2 \(\+2 this run\)/);
    expect(run.out()).toMatch(/filter_condition_error\s+2/);
    expect(run.out()).toMatch(/join_logic_error\s+0/);
    // Sampled warm: the sampler role runs at the sample temperature.
    const sampled = server.requests.find((r) => !isLabeler(r))!;
    expect(sampled.body.temperature).toBe(0.8);

    // The memory records where it came from and its content hash.
    expect(run.out()).toMatch(/Entries: 2 \(\+2 this run\); built from .*minibench \(train\); sha256 [0-9a-f]{16}\n/);
    // eval refuses it for the questions it was built from, before any model call (issue 18: the gold SQL of another
    // evaluated question reached the critic); the flag allows it, and the report says so.
    const before = server.requests.length;
    const refused = io();
    const evalArgs = ["eval", "memo-sql", "--bench", benchDir, "--split", "train", "--ids", `${train[0]!.id},${train[1]!.id}`, "--memory", file, "--checkpoints", "memory"];
    expect(await main([...evalArgs, "--out", path.join(dir, "refused")], refused.io)).toBe(1);
    expect(refused.err()).toMatch(/holds 2 entries .*2 built from the evaluated split \(train\) \(evaluated questions hit: 1, first: 0\).*--allow-memory-overlap/);
    expect(server.requests.length).toBe(before);
    expect(fs.existsSync(path.join(dir, "refused", "results.jsonl"))).toBe(false);

    // A second build into the same file needs --resume.
    const again = io();
    expect(await main(["memo", "build", "--bench", benchDir, "--out", file, "--limit", "6"], again.io)).toBe(1);
    expect(again.err()).toMatch(/already holds a memory: pass --resume/);
  }, 30_000);

  it("locks its memory file as eval locks --out: a second build at once refuses, naming the first; entries are not doubled", async () => {
    const file = path.join(dir, "locked.sqlite");
    const [a, b] = [io(), io()];
    const args = ["memo", "build", "--bench", benchDir, "--out", file, "--ids", train[0]!.id, "--samples", "4"];
    const codes = await Promise.all([main(args, a.io), main(args, b.io)]);
    expect(codes.sort()).toEqual([0, 1]);
    expect(a.err() + b.err()).toMatch(new RegExp(`^sqlmend memo: ${file.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} is being written by process ${process.pid} on .* \\(sqlmend memo build, since `, "m"));
    const store = MemoryStore.open(file);
    expect(store.entries()).toHaveLength(1);
    store.close();
    // Released at the end: a --resume afterwards runs.
    const later = io();
    expect(await main([...args, "--resume"], later.io)).toBe(0);
    expect(fs.existsSync(`${file}.lock`)).toBe(false);
  }, 30_000);

  it("goes on past a question whose database is corrupt", async () => {
    const broken = path.join(dir, "broken-bench");
    await buildMinibench(broken);
    // Questions 9 (school), 12 (shop) and 21 (music) each yield an entry; shop's database is broken.
    const picked = [train[9]!, train[12]!, train[21]!];
    const victim = train[12]!;
    const dbFile = path.join(broken, "train_databases", victim.dbId, `${victim.dbId}.sqlite`);
    fs.writeFileSync(dbFile, "not a database ".repeat(200));
    const file = path.join(dir, "broken.sqlite");
    const run = io();
    // Finished, but a question failed: exit status 3 (--resume runs it again).
    expect(await main(["memo", "build", "--bench", broken, "--out", file, "--ids", picked.map((q) => q.id).join(",")], run.io)).toBe(3);
    const store = MemoryStore.open(file);
    const sources = store.entries().map((e) => e.sourceId);
    const victimDone = store.done().get(victim.id);
    store.close();
    expect(victimDone).toBeUndefined(); // not marked done: --resume tries it again
    expect(run.err()).toMatch(new RegExp(`question ${victim.id}: failed: cannot read the schema: .*not a database file`));
    expect(sources.sort()).toEqual([train[9]!, train[21]!].map((q) => `${q.dbId}/${q.id}`).sort());
    expect(run.out()).toMatch(/Questions: 3 selected, 2 done \(2 this run, 1 failed\), 1 left for --resume\n/);
    expect(run.out()).toMatch(/failed this run 1 \(retried by --resume\)/);
    expect(run.out()).toMatch(new RegExp(`^1 question failed \\(e\\.g\\. ${victim.id}: cannot read the schema: .*\\); --resume runs it again$`, "m"));
  }, 60_000);

  it("under --seed each sample of a question is sent its own seed (past five samples the prompts repeat)", async () => {
    const file = path.join(dir, "seeded.sqlite");
    const before = server.requests.length;
    const run = io();
    expect(await main(["memo", "build", "--bench", benchDir, "--out", file, "--limit", "1", "--samples", "7", "--seed", "5"], run.io)).toBe(0);
    const samples = server.requests.slice(before).filter((r) => !isLabeler(r));
    expect(samples).toHaveLength(7);
    expect(new Set(samples.map((r) => r.body.seed)).size).toBe(7);
    // Two samples share a prompt (the angles repeat), yet not a seed.
    expect(new Set(samples.map((r) => lastUser(r))).size).toBeLessThan(7);
  }, 60_000);

  it("elicits candidates with the memo-sql pipeline instead of sampling", async () => {
    const file = path.join(dir, "pipeline.sqlite");
    const before = server.requests.length;
    const run = io();
    expect(await main(["memo", "build", "--bench", benchDir, "--out", file, "--limit", "3", "--elicit", "pipeline"], run.io)).toBe(0);
    const requests = server.requests.slice(before);
    expect(requests.some((r) => lastUser(r).includes("Write the query the most direct way"))).toBe(false); // no sampling
    // 3 questions × 3 styles: the scripted decomposer gives every path the same plan, solved and written once (its
    // candidates count for all three paths: nine a question).
    expect(requests.filter((r) => lastUser(r).includes("Now write one SQLite query")).length).toBe(9);
    const store = MemoryStore.open(file);
    expect(store.entries().map((e) => [e.sourceId, e.wrongSql])).toEqual([[`${train[0]!.dbId}/${train[0]!.id}`, "SELECT 12345"]]);
    expect(store.stats().done).toEqual({ entry: 1, "all-correct": 2 });
    store.close();
  }, 60_000);

  it("is killed mid-question and finishes with --resume, redoing only unfinished questions, without duplicates", async () => {
    const file = path.join(dir, "killed.sqlite");
    hangOn = train[3]!.question;
    const args = ["bin/sqlmend.js", "memo", "build", "--bench", benchDir, "--out", file, "--limit", "6", "--concurrency", "1"];
    // No response cache: the child's data dir is the repository's, and the resumed run must ask the server again.
    const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_CACHE: "off" };
    const seen = server.requests.length;
    const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    const deadline = Date.now() + 20_000;
    while (Date.now() < deadline && !server.requests.slice(seen).some((r) => questionOf(r) === hangOn)) await new Promise((r) => setTimeout(r, 20));
    child.kill("SIGKILL");
    await new Promise((r) => child.once("exit", r));
    hangOn = undefined;
    const killed = MemoryStore.open(file);
    expect([...killed.done().keys()].sort()).toEqual([train[0]!.id, train[1]!.id, train[2]!.id].sort());
    expect(killed.entries().map((e) => e.sourceId)).toEqual([`${train[0]!.dbId}/${train[0]!.id}`]);
    killed.close();

    const before = server.requests.length;
    const resumed = io();
    expect(await main(args.slice(1).concat("--resume"), resumed.io)).toBe(0);
    const asked = new Set(server.requests.slice(before).map(questionOf));
    for (const q of train.slice(0, 3)) expect(asked.has(q.question)).toBe(false);
    expect(asked.has(train[3]!.question)).toBe(true);
    const store = MemoryStore.open(file);
    expect(store.done().size).toBe(6);
    expect(store.entries().map((e) => e.sourceId)).toEqual([train[0]!, train[3]!].map((q) => `${q.dbId}/${q.id}`));
    store.close();
    expect(resumed.err()).toMatch(/6 questions \(3 already done\)/);
    expect(resumed.out()).toMatch(/Questions: 6 selected, 6 done \(3 this run\)\n/);
    // A smaller selection: its own questions are counted, the rest of the file is named apart.
    const fewer = io();
    expect(await main(["memo", "build", "--bench", benchDir, "--out", file, "--limit", "2", "--resume"], fewer.io)).toBe(0);
    expect(fewer.out()).toMatch(/Questions: 2 selected, 2 done \(0 this run\); 4 more done outside this selection\n/);
  }, 60_000);
});

describe("memo add, show, search", () => {
  it("labels and stores a correction that retrieval returns at once", async () => {
    const file = path.join(dir, "memory.sqlite");
    const q = train[6]!;
    const run = io();
    const code = await main(["memo", "add", "--memory", file, "--db", q.dbPath, "--question", q.question, "--wrong", "SELECT 12345", "--correct", q.goldSql!], run.io);
    expect(run.err()).toBe("");
    expect(code).toBe(0);
    expect(run.out()).toMatch(/Added entry #3 \(filter_condition_error, select_output_error\)/);

    const found = io();
    expect(await main(["memo", "search", file, "Something similar to this", "--sql", "SELECT 999", "--json"], found.io)).toBe(0);
    const r = JSON.parse(found.out());
    expect(r.ranked.map((x: { entry: { question: string } }) => x.entry.question)).toContain(q.question);
    // All three share their error types: the filter keeps only the best-ranked.
    expect(r.entries).toHaveLength(1);
    expect(r.ranked.filter((x: { kept: boolean }) => !x.kept)).toHaveLength(2);

    const own = io();
    expect(await main(["memo", "search", file, q.question, "--sql", "SELECT 1"], own.io)).toBe(0);
    expect(own.out()).not.toContain(`] ${q.question}`); // never the question's own entry

    // The very next question retrieves it: memo-refine's critic is shown the added correction.
    const before = server.requests.length;
    const ask = io();
    expect(await main(["ask", "memo-refine", "--db", q.dbPath, "--memory", file, "--sql", "SELECT 1", "--checkpoints", "memory", `${q.question} please`], ask.io)).toBe(0);
    const critic = server.requests.slice(before).find((r) => r.messages[0]?.content.startsWith("You are a strict reviewer"))!;
    expect(critic.messages.map((m) => m.content).join("\n")).toContain(`Question: ${q.question}\nWrong SQL: SELECT 12345`);

    const shown = io();
    expect(await main(["memo", "show", file], shown.io)).toBe(0);
    expect(shown.out()).toMatch(/Entries: 3/);
    expect(shown.out()).toMatch(/select_output_error\s+3/);
  });

  it("ranks with the shared embedder when one is configured, and says which ranking it used", async () => {
    const file = path.join(dir, "dense.sqlite");
    const embedding = ["--embedding-model", "test-embed"];
    for (const q of [train[3]!, train[9]!]) {
      const added = io();
      expect(await main(["memo", "add", "--memory", file, "--db", q.dbPath, "--question", q.question, "--wrong", "SELECT 12345", "--correct", q.goldSql!, ...embedding], added.io)).toBe(0);
      expect(added.out()).toMatch(/Ranking: embeddings \(test-embed; \d of \d keys embedded, 1 now/);
    }
    const stored = MemoryStore.open(file);
    expect(stored.vectorModels()).toEqual({ "test-embed": 2 });
    stored.close();

    const dense = io();
    expect(await main(["memo", "search", file, "average salary per department", "--sql", "SELECT 1", ...embedding], dense.io)).toBe(0);
    expect(dense.out()).toMatch(/^Ranking: embeddings \(test-embed\); mode filtered; 2 ranked/m);
    const json = io();
    expect(await main(["memo", "search", file, "a question", "--sql", "SELECT 1", "--json", ...embedding], json.io)).toBe(0);
    expect(JSON.parse(json.out())).toMatchObject({ ranking: "embeddings" });

    const lexical = io();
    expect(await main(["memo", "search", file, "a question", "--sql", "SELECT 1"], lexical.io)).toBe(0);
    expect(lexical.out()).toMatch(/^Ranking: lexical \(no embedding model configured\)/m);
    const shown = io();
    expect(await main(["memo", "show", file], shown.io)).toBe(0);
    expect(shown.out()).toMatch(/Key vectors: 2 by test-embed\nRanking: lexical/);
  });

  it("refuses SQL that does not execute and files that are not memories, in one line", async () => {
    const q = train[0]!;
    const bad = io();
    expect(await main(["memo", "add", "--memory", path.join(dir, "m.sqlite"), "--db", q.dbPath, "--question", "x", "--wrong", "SELEC nope", "--correct", q.goldSql!], bad.io)).toBe(1);
    expect(bad.err()).toMatch(/--wrong SQL does not execute/);
    const notMemory = io();
    expect(await main(["memo", "show", q.dbPath], notMemory.io)).toBe(1);
    expect(notMemory.err().trim().split("\n")).toHaveLength(1);
    expect(notMemory.err()).toMatch(/not a Memo-SQL memory/);
    expect(fs.existsSync(path.join(dir, "m.sqlite"))).toBe(false);
    const corrupt = path.join(dir, "corrupt.sqlite");
    fs.writeFileSync(corrupt, "this is not a database at all, just bytes ".repeat(100));
    const garbage = io();
    expect(await main(["memo", "search", corrupt, "q", "--sql", "SELECT 1"], garbage.io)).toBe(1);
    expect(garbage.err().trim().split("\n")).toHaveLength(1);
    expect(garbage.err()).toMatch(/cannot open the memory/);
  });
});

describe("eval memo-sql through the launcher", () => {
  it("runs with its own flags, loads training exemplars, and scores", async () => {
    const out = path.join(dir, "eval-memo");
    const before = server.requests.length;
    const run = io();
    const code = await main(
      ["eval", "memo-sql", "--bench", benchDir, "--out", out, "--ids", dev[0]!.id, "--memory", path.join(dir, "memory.sqlite"), "--allow-memory-overlap", "--styles", "1", "--refine-rounds", "1", "--vote-empty", "discard", "--checkpoints", "memory"],
      run.io,
    );
    expect(run.err()).not.toMatch(/error/i);
    expect(code).toBe(0);
    const line = JSON.parse(fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim());
    expect(line).toMatchObject({ id: dev[0]!.id, correct: true });
    expect(Object.keys(line.usageByRole).sort()).toEqual(["critic", "decomposer", "linker", "reflector", "solver", "writer"]);
    expect(line.usageByRole.writer.calls).toBe(1); // --styles 1; the three paths plan the same: solved and written once
    expect(line.outcome).toMatchObject({ candidates: 3, collapsedPaths: 2 });
    const writer = server.requests.slice(before).find((r) => (r.messages.at(-1)?.content ?? "").includes("Now write one SQLite query"))!;
    expect(writer.messages.at(-1)!.content).toContain("Examples of questions"); // the train split was loaded for ICL
    const settings = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")).settings;
    expect(settings).toMatchObject({ styles: 1, "vote-empty": "discard", retrieval: "filtered", "refine-rounds": 1 });
    // The memory holds `memo add` entries of the evaluated database (issue 40): kept only with the flag, and counted.
    expect(fs.readFileSync(path.join(out, "run.json"), "utf8")).toMatch(/"overlappingEntries": \{[^}]*"database": 1/);

    const bad = io();
    expect(await main(["eval", "baseline", "--bench", benchDir, "--out", path.join(dir, "x"), "--styles", "2"], bad.io)).toBe(2);
    expect(bad.err()).toMatch(/--styles is an option of memo-sql/);
  }, 60_000);
});
