/**
 * `sqlmend replay` through the launcher and the real ChatOpenAI client against the local server (every role its own
 * model name, test/support/method-agents.ts): an r3 eval with the cache off, then a replay from `review` with a
 * reviewer of the test's own. The server must see only the suffix's requests, the original's threads must stay as
 * they were, the output must be a run folder `compare` takes, and a thread that never reached `review` is listed.
 */
import fs from "node:fs";
import path from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type ChatRequestRecord, type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";
import { agentsConfig, methodAgents } from "./support/method-agents.ts";
import { minibenchFixture, resultsOf, runCli } from "./support/cli.ts";
import { type PostgresServer, startPostgres } from "./support/postgres.ts";

const started = await startPostgres();
const skipPostgres = "skip" in started ? started.skip : undefined;
if (skipPostgres) console.warn(`replay (PostgreSQL): skipped: ${skipPostgres}`);
const pg = skipPostgres ? undefined : (started as PostgresServer);

let dir: string;
let dev: Question[];
let benchDir: string;
let server: OpenAIServer;
/** The question whose writer never writes SQL: its thread ends before any review (nothing to review). */
let neverReviewed: Question;

/** While set, the persona model answers 500: a prefix call that gets no reply. */
let personaDown = false;
const REPLACED = "REPLAY-REVIEWER";
const REPLAYED_SQL = "SELECT 'replayed'";
const roleOf = (req: ChatRequestRecord) => req.model.replace(/^agent\//, "");
const lastUser = (req: ChatRequestRecord) => req.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
const sqlmend = (...args: string[]) => runCli(args, dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") });

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  const train = (await loadBenchmark(benchDir, { split: "train" })).questions;
  neverReviewed = dev[2]!;
  const agents = methodAgents({ questions: [dev, train], initial: () => "right" });
  server = await startOpenAIServer({
    respond: (req) => {
      if (personaDown && roleOf(req) === "persona") return { status: 500, body: { error: { message: "persona model down" } } };
      const text = req.messages.map((m) => m.content).join("\n");
      if (roleOf(req) === "writer" && text.includes(neverReviewed.question)) return { content: "I cannot tell which table holds this." };
      // The writer follows a reviewer that gives it a query (only the test's replacement reviewer does).
      if (roleOf(req) === "writer" && lastUser(req).includes(REPLACED)) return { content: `Following the review.\n\`\`\`sql\n${REPLAYED_SQL}\n\`\`\`` };
      return agents.respond(req);
    },
  });
  fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
  // A reviewer that asks no model: it tells the writer which query to write.
  fs.writeFileSync(
    path.join(dir, "strict-review.mjs"),
    `export default () => async (state) => ({ reviews: [{ round: state.rounds + 1, reviewer: state.reviewerIndex, profession: "replacement", ok: true, text: "${REPLACED}: write ${REPLAYED_SQL} instead." }] });\n`,
  );
});
afterAll(async () => {
  await server?.close();
  pg?.stop();
  removeTempDir(dir);
});

const ids = () => dev.slice(0, 4).map((q) => q.id).join(",");

/** Runs the r3 eval on four questions into `out`; the requests it sent, by role. */
async function evalR3(out: string, checkpoints: string) {
  const from = server.requests.length;
  const run = await sqlmend("eval", "r3", "--bench", benchDir, "--out", out, "--ids", ids(), "--reviewers", "2", "--max-debug-turns", "1", "--checkpoints", checkpoints, "--cache", "off");
  expect(run.code, run.out + run.err).toBe(0);
  return server.requests.slice(from);
}

/** Replays `original` from review with the test's reviewer; what the server received meanwhile. */
async function replay(original: string, out: string, extra: string[] = []) {
  const from = server.requests.length;
  const embeddings = server.embeddingRequests.length;
  const run = await sqlmend("replay", original, "--from", "review", "--node", "review=strict-review.mjs", "--out", out, "--cache", "off", ...extra);
  return { run, requests: server.requests.slice(from), embeddings: server.embeddingRequests.length - embeddings };
}

/** What every replay on this fixture must show: suffix requests only, the swapped reviewer's answers, the listing. */
async function expectReplayed(original: string, out: string, sent: { run: { code: number; out: string; err: string }; requests: ChatRequestRecord[]; embeddings: number }) {
  const { run, requests } = sent;
  expect(run.code, run.out + run.err).toBe(0);
  const before = await resultsOf(original);
  const after = await resultsOf(out);
  const replayed = dev.slice(0, 4).filter((q) => q !== neverReviewed);
  expect([...after.keys()].sort()).toEqual(replayed.map((q) => q.id).sort());

  // Only the suffix reached the server: no linker, persona, opening writer turn, debug turn or embedding; no reviewer
  // either (the replacement asks none); per question two writer turns answering the replacement's reviews (the
  // revision, then the consensus of round 2).
  expect(sent.embeddings).toBe(0);
  expect(requests.map(roleOf).every((role) => role === "writer")).toBe(true);
  expect(requests).toHaveLength(2 * replayed.length);
  for (const req of requests) expect(lastUser(req)).toContain(`${REPLACED}: write ${REPLAYED_SQL} instead.`);

  for (const q of replayed) {
    const r = after.get(q.id) as Record<string, any>;
    const o = before.get(q.id) as Record<string, any>;
    // The swapped node's answer, scored; the counts are the suffix's, the prefix's kept apart.
    expect(r.sql).toBe(REPLAYED_SQL);
    expect(r.correct).toBe(false);
    expect(o.correct).toBe(true);
    expect(r.calls).toBe(2);
    expect(Object.keys(r.usageByRole)).toEqual(["writer"]);
    expect(r.thread).toMatch(/^replay:/);
    // The original's calls: the prefix's, its reviewers' and one writer turn per review round.
    expect(r.replay).toMatchObject({ from: "review", originalThread: o.thread, originalCorrect: true });
    expect(r.replay.prefixCalls).toBe(o.calls - o.usageByRole.reviewer.calls - o.outcome.rounds);
    expect(r.replay.prefixSteps).toBeGreaterThanOrEqual(4);
    expect(r.outcome).toMatchObject({ rounds: 2, stopReason: "consensus" });
  }
  const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
  expect(report).toMatch(/^# sqlmend replay: r3/);
  const reusedCalls = replayed.reduce((n, q) => n + (after.get(q.id) as any).replay.prefixCalls, 0);
  expect(report).toContain(`Reused from the recorded prefixes (kept as recorded, not re-run, not in the figures of this report): `);
  expect(report).toMatch(new RegExp(`prefixes \\(kept as recorded, not re-run, not in the figures of this report\\): \\d+ steps, ${reusedCalls} model calls`));
  expect(report).toContain(`The suffixes (this replay's own work, every other figure here): ${2 * replayed.length} model calls`);
  expect(report).toContain(`- Not replayed (1):\n  - ${neverReviewed.id}: its thread never ran 'review'`);
  expect(run.out).toContain("1 not replayed (never reached 'review')");
  for (const file of ["results.jsonl", "run.json", "report.md", "predict_dev.json", "pred_dev.sql"]) expect(fs.existsSync(path.join(out, file)), file).toBe(true);
  const runFile = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8"));
  // Each swapped module by its content, as eval records it: a --resume refuses an edited one.
  expect(runFile).toMatchObject({ graph: "r3", replay: { from: "review", nodes: ["review=strict-review.mjs"] }, settings: { reviewers: 2, node: { review: { path: expect.stringContaining("strict-review.mjs"), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } } } });
  expect(runFile.code).toMatchObject({ sha256: expect.stringMatching(/^[0-9a-f]{64}$/) });

  // compare takes the folder: the three replayed questions flipped from right to wrong.
  const compared = await sqlmend("compare", original, out, "--json");
  expect(compared.code, compared.err).toBe(0);
  const comparison = JSON.parse(compared.out);
  expect(comparison.onlyACorrect.sort()).toEqual(replayed.map((q) => q.id).sort());
  expect(comparison.onlyInA).toBe(1);
}

describe("sqlmend replay", () => {
  it("forks each thread before 'review' and runs only the rest with the swapped reviewer: the server sees the suffix alone, the original's threads stay as they were", async () => {
    const original = path.join(dir, "r3");
    const checkpoints = path.join(dir, "cp.sqlite");
    const evalRequests = await evalR3(original, checkpoints);
    expect(evalRequests.filter((r) => roleOf(r) === "reviewer").length).toBeGreaterThan(0);
    const countCheckpoints = () => {
      const db = new Database(checkpoints, { readonly: true });
      try {
        return db.prepare("SELECT thread_id, count(*) AS n FROM checkpoints WHERE thread_id LIKE 'eval:%' GROUP BY thread_id ORDER BY thread_id").all();
      } finally {
        db.close();
      }
    };
    const threadsBefore = countCheckpoints();

    const out = path.join(dir, "replay");
    await expectReplayed(original, out, await replay(original, out));
    expect(countCheckpoints()).toEqual(threadsBefore);

    // The fork is a thread like any other: inspect shows its steps, the replacement's review among them.
    const thread = ((await resultsOf(out)).get(dev[0]!.id) as { thread: string }).thread;
    const inspected = await sqlmend("inspect", thread, "--checkpoints", checkpoints);
    expect(inspected.code, inspected.err).toBe(0);
    expect(inspected.out).toContain(REPLACED);

    // --resume finds every question done and sends nothing.
    const again = await replay(original, out, ["--resume"]);
    expect(again.run.code, again.run.err).toBe(0);
    expect(again.requests).toHaveLength(0);
  }, 120_000);

  it("refuses an unknown slot, naming the graph's slots, and a selection none of whose threads reached the slot", async () => {
    const original = path.join(dir, "r3");
    const unknown = await sqlmend("replay", original, "--from", "reviews", "--out", path.join(dir, "bad-slot"));
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/graph 'r3' has no slot 'reviews' \(slots: schema, write, execute, debug, persona, review, revise, finish\)/);
    const wrongOnly = await sqlmend("replay", original, "--from", "review", "--only", "wrong", "--out", path.join(dir, "wrong-only"));
    expect(wrongOnly.code).toBe(1);
    expect(wrongOnly.err).toContain(`none of the 1 selected questions can be replayed from slot 'review' (first: ${neverReviewed.id}: its thread never ran 'review'`);
    const rightOnly = await sqlmend("replay", original, "--from", "review", "--only", "right", "--ids", dev[0]!.id, "--node", "review=strict-review.mjs", "--out", path.join(dir, "right-one"), "--cache", "off");
    expect(rightOnly.code, rightOnly.err).toBe(0);
    expect([...(await resultsOf(path.join(dir, "right-one"))).keys()]).toEqual([dev[0]!.id]);
  }, 120_000);

  it("does not replay a question whose recorded prefix holds a call that got no reply: its answer would not be the method's", async () => {
    const original = path.join(dir, "r3-persona-down");
    personaDown = true;
    try {
      const run = await sqlmend("eval", "r3", "--bench", benchDir, "--out", original, "--ids", dev[0]!.id, "--reviewers", "2", "--max-retries", "0", "--checkpoints", path.join(dir, "cp-down.sqlite"), "--cache", "off");
      expect(run.code, run.out + run.err).toBe(3);
    } finally {
      personaDown = false;
    }
    const refused = await sqlmend("replay", original, "--from", "review", "--only", "failed", "--out", path.join(dir, "replay-down"), "--cache", "off");
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(new RegExp(`none of the 1 selected questions can be replayed from slot 'review' \\(first: ${dev[0]!.id}: before 'review', \\d+ model calls? got no reply \\(model call failed: 500 persona model down\\)`));
  }, 120_000);

  it.skipIf(!!skipPostgres)("works on threads checkpointed in PostgreSQL", async () => {
    const original = path.join(dir, "r3-pg");
    await evalR3(original, pg!.url);
    const out = path.join(dir, "replay-pg");
    await expectReplayed(original, out, await replay(original, out));
  }, 120_000);
});
