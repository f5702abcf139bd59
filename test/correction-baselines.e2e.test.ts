/**
 * MAGIC Table 1's baselines through the launcher: `sqlmend eval self-consistency|self-debugging|multiple-prompt
 * --initial baseline --correct errors` on minibench, with the response cache on — self-consistency's N samples are one
 * request with n = N (the local server answers each choice), and a rerun is answered from the cache with the same vote.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { minibenchFixture, questionOf, resultsOf, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type ChatRequestRecord, type OpenAIServer, type ScriptedReply, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";

const SAMPLER = "agent/sampler";
let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;
const sampled = new Map<string, number>();
const sqlReply = (sql: string): ScriptedReply => ({ content: `\`\`\`sql\n${sql}\n\`\`\``, usage: { prompt_tokens: 50, completion_tokens: 10 } });
const last = (req: ChatRequestRecord) => req.messages.at(-1)?.content ?? "";
const samplerRequests = () => server.requests.filter((r) => r.model === SAMPLER);

// q1's initial SQL fails to execute (the only one --correct errors selects); q0 and q2 start right.
const q = (i: number) => dev[i]!;
const FAILING = "SELECT nope FROM nowhere";

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  server = await startOpenAIServer({
    respond: (req) => {
      const text = last(req);
      const question = dev.find((x) => x.question === (questionOf(req) || /Question: (.*)/.exec(text)?.[1]?.trim()));
      if (!question) return sqlReply("SELECT 1");
      if (req.model === SAMPLER) {
        // Every fourth sample of a question is wrong: 3 of 4 vote for the gold result.
        const k = (sampled.get(question.id) ?? 0) + 1;
        sampled.set(question.id, k);
        return sqlReply(k % 4 === 0 ? "SELECT 42" : question.goldSql!);
      }
      if (text.includes("Verdict: correct")) return { content: text.includes(question.goldSql!) ? "It answers the question.\nVerdict: correct" : "It does not run.\nVerdict: wrong" };
      if (text.includes("The explanation finds the query wrong")) return sqlReply(question.goldSql!);
      return sqlReply(question === q(1) ? FAILING : question.goldSql!);
    },
  });
});
afterAll(async () => {
  await server.close();
  removeTempDir(dir);
});

const env = () => ({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID });
const evalArgs = (graph: string, out: string, more: string[] = []) => [
  "eval", graph, "--bench", benchDir, "--out", out, "--ids", [0, 1, 2].map((i) => q(i).id).join(","),
  "--initial", "baseline", "--max-fix-rounds", "0", "--correct", "errors", "--role-model", `sampler=${SAMPLER}`, "--checkpoints", "memory", ...more,
];

describe("the baselines through sqlmend eval", () => {
  it("sqlmend graphs lists them as correctors", async () => {
    const run = await runCli(["graphs"], dir, env());
    expect(run.code, run.err).toBe(0);
    for (const name of ["self-debugging", "self-consistency", "multiple-prompt"]) expect(run.out).toMatch(new RegExp(`^\\s*${name}\\s+corrector`, "m"));
  });

  it("self-consistency corrects the failing initial SQL by vote; its N samples are one request with n, and a rerun hits the cache", async () => {
    const checkpoints = path.join(dir, "sc.sqlite");
    const run = await runCli(evalArgs("self-consistency", "sc", ["--samples", "4"]).map((a) => (a === "memory" ? checkpoints : a)), dir, env());
    expect(run.code, run.err).toBe(0);
    const r = await resultsOf(path.join(dir, "sc"));
    expect(r.get(q(0).id)).toMatchObject({ correction: "skipped: initial SQL executes", correct: true });
    expect(r.get(q(1).id)).toMatchObject({ correction: "applied", correct: true, initialSql: FAILING, sql: q(1).goldSql });
    expect(r.get(q(1).id)!.outcome).toMatchObject({ samples: 4, votes: 3, distinctResults: 2, samplesFailed: 0, allSamplesFailed: false, decision: "majority" });
    // One request for the four samples: the prompt sent (and billed) once.
    expect(samplerRequests()).toHaveLength(1);
    expect(samplerRequests()[0]!.body).toMatchObject({ n: 4, temperature: 0.8 });
    expect(r.get(q(1).id)).toMatchObject({ usageByRole: { sampler: { calls: 1 } } });
    // inspect shows the sampling step with its one call, and the vote's outcome.
    const shown = await runCli(["inspect", r.get(q(1).id)!.thread as string, "--checkpoints", checkpoints], dir, env());
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toMatch(/^\s+\d+\s+sample\b.*\[1 model call: sampler/m);
    expect(shown.out).toMatch(/^Outcome: .*samples 4, prompts 1, .*votes 3, .*allSamplesFailed false, decision majority$/m);

    const again = await runCli(evalArgs("self-consistency", "sc-again", ["--samples", "4"]), dir, env());
    expect(again.code, again.err).toBe(0);
    expect(samplerRequests()).toHaveLength(1);
    expect((await resultsOf(path.join(dir, "sc-again"))).get(q(1).id)!.outcome).toMatchObject({ samples: 4, votes: 3, distinctResults: 2 });
  });

  it("under --seed the request with n carries a sample seed; where the server refuses n each separate request its own", async () => {
    let before = samplerRequests().length;
    const run = await runCli(evalArgs("self-consistency", "sc-seed", ["--samples", "4", "--seed", "7", "--cache", "off"]), dir, env());
    expect(run.code, run.err).toBe(0);
    const [one] = samplerRequests().slice(before);
    expect(one!.body).toMatchObject({ n: 4, seed: expect.any(Number) });
    expect(one!.body.seed).not.toBe(7);
    // One seed for N identical separate requests would sample one reply N times.
    server.n = "refuse";
    try {
      before = samplerRequests().length;
      const refused = await runCli(evalArgs("self-consistency", "sc-seed-refused", ["--samples", "4", "--seed", "7", "--cache", "off"]), dir, env());
      expect(refused.code, refused.err).toBe(0);
      const sent = samplerRequests().slice(before);
      expect(sent.map((r) => r.body.n ?? 1)).toEqual([4, 1, 1, 1, 1]);
      const seeds = sent.slice(1).map((r) => r.body.seed as number);
      expect(new Set(seeds).size).toBe(4);
      expect(seeds.every((s) => Number.isInteger(s))).toBe(true);
      expect((await resultsOf(path.join(dir, "sc-seed-refused"))).get(q(1).id)!.outcome).toMatchObject({ samplesSeparately: "the server refused n=4: 4 separate requests" });
      // report.md counts it.
      expect(fs.readFileSync(path.join(dir, "sc-seed-refused", "report.md"), "utf8")).toContain("samplesSeparately: the server refused n=4: 4 separate requests");
    } finally {
      server.n = "honour";
    }
    // The generator's requests keep the run's seed.
    expect(server.requests.filter((r) => r.model === TEST_MODEL_ID).at(-1)!.body.seed).toBe(7);
  });

  it("self-debugging explains the failing SQL, corrects it, and stops when the explainer calls it correct", async () => {
    const run = await runCli(evalArgs("self-debugging", "sd"), dir, env());
    expect(run.code, run.err).toBe(0);
    const r = await resultsOf(path.join(dir, "sd"));
    expect(r.get(q(1).id)).toMatchObject({ correction: "applied", correct: true, iterations: 1 });
    expect(r.get(q(1).id)!.outcome).toMatchObject({ debugTurns: 1, stopReason: "judged correct", stoppedByTurnLimit: false });
    expect(r.get(q(2).id)).toMatchObject({ correction: "skipped: initial SQL executes" });
  });

  it("multiple-prompt runs as a corrector too, with its prompt count in the outcome", async () => {
    const run = await runCli(evalArgs("multiple-prompt", "mp", ["--samples", "3", "--cache", "off"]), dir, env());
    expect(run.code, run.err).toBe(0);
    const outcome = (await resultsOf(path.join(dir, "mp"))).get(q(1).id)!.outcome as Record<string, number>;
    expect(outcome.samples).toBe(outcome.prompts);
    expect(outcome.prompts).toBeGreaterThanOrEqual(1);
    expect(outcome.prompts).toBeLessThanOrEqual(3);
  });
});
