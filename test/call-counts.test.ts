/**
 * Every graph's declared model calls per question (`GraphInfo.calls`, `expectedCalls`) against what eval measures
 * (results.jsonl's `calls`): through the launcher and the real ChatOpenAI client on the local OpenAI-compatible
 * server. First with the role-aware agents of test/support/method-agents.ts (well-behaved runs: each question's calls
 * within [min, max]), then with adversarial agents that drive every loop to its bound (no SQL until the last re-ask,
 * SQL that never executes, replies that never parse, reviewers and critics that always object): each question must
 * cost exactly the declared max; and with cooperative agents (every reply right at once) exactly the declared min.
 * MAGIC's cycle and merges run through `sqlmend magic guideline`. No embedding model is configured and no response
 * cache, so `calls` holds every chat call and nothing else.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { writeBirdPredictions } from "../tools/benchmarks/score.ts";
import type { Question } from "../state/question.ts";
import { expectedCalls } from "../graphs/calls.ts";
import { graphManifests } from "../graphs/registry.ts";
import { MAX_SQL_REASKS } from "../nodes/r3/options.ts";
import { MAX_SUB_QUESTIONS } from "../nodes/memo/options.ts";
import { reaskTurn } from "../nodes/r3/prompts.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type ChatRequestRecord, type NMode, type OpenAIServer, type ScriptedReply, startOpenAIServer } from "./support/openai-server.ts";
import { agentsConfig, failing, type MethodAgents, methodAgents, wrongResult } from "./support/method-agents.ts";
import { minibenchFixture, runCli } from "./support/cli.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;
let agents: MethodAgents;
/** Who answers now: the well-behaved agents, or an adversary. */
let respond: (req: ChatRequestRecord) => ScriptedReply;

// No response cache: every call reaches the server (the well-behaved runs' replies must not answer the adversaries).
const sqlmend = (...args: string[]) => runCli(args, dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" });

beforeAll(async () => {
  dir = makeTempDir("sqlmend-calls-");
  ({ benchDir, dev } = await minibenchFixture(dir));
  const train = (await loadBenchmark(benchDir, { split: "train" })).questions;
  agents = methodAgents({ questions: [dev, train] });
  respond = agents.respond;
  server = await startOpenAIServer({ respond: (req) => respond(req) });
  // One model per role (the server knows who asks); no embedding model: embedding requests are not model calls.
  fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url, embeddingModel: undefined })));
  // Correctors start from question 0's wrong result, 1's failing SQL, 2's gold.
  await writeBirdPredictions(path.join(dir, "initial.json"), [
    { id: dev[0]!.id, dbId: dev[0]!.dbId, sql: wrongResult(dev[0]!.goldSql!) },
    { id: dev[1]!.id, dbId: dev[1]!.dbId, sql: failing(dev[1]!.goldSql!) },
    { id: dev[2]!.id, dbId: dev[2]!.dbId, sql: dev[2]!.goldSql! },
  ]);
  // For the adversaries: initial SQL that never executes.
  await writeBirdPredictions(path.join(dir, "failing.json"), dev.slice(0, 3).map((q) => ({ id: q.id, dbId: q.dbId, sql: failing(q.goldSql!) })));
  // memo-refine --candidates: nine distinct candidates for each of the first three questions.
  const nine = Object.fromEntries(dev.slice(0, 3).map((q) => [q.id, { dbId: q.dbId, question: q.question, candidates: Array.from({ length: 9 }, (_, i) => ({ id: `c${i}`, sql: `SELECT ${i} AS v` })) }]));
  fs.writeFileSync(path.join(dir, "nine.json"), JSON.stringify({ kind: "sqlmend-memo-candidates", source: {}, questions: nine }));
  fs.writeFileSync(path.join(dir, "guideline.md"), "# Guideline\n\n1. Reminder: did I apply every condition of the question?\n   - Ask: which filter does each phrase map to?\n");
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

type Flags = Record<string, unknown>;

/** Flags as the launcher takes them, and as `expectedCalls` takes them (camelCase keys, parsed values). */
function argsOf(flags: Flags): { args: string[]; options: Flags } {
  const args: string[] = [];
  const options: Flags = {};
  for (const [key, value] of Object.entries(flags)) {
    const flag = `--${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    if (value === true) args.push(flag);
    else args.push(flag, Array.isArray(value) ? value.join(",") : String(value));
    options[key] = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  }
  return { args, options };
}

interface Measured {
  id: string;
  calls: number;
  roles: string[];
}

/** Runs eval GRAPH over `limit` questions; each question's measured calls (no failures, no embedder calls). */
async function measure(graph: string, flags: Flags, extra: string[] = [], limit = 2): Promise<{ measured: Measured[]; options: Flags }> {
  const { args, options } = argsOf(flags);
  const out = path.join(dir, "runs", `${graph}-${Math.random().toString(36).slice(2, 8)}`);
  const run = await sqlmend("eval", graph, "--bench", benchDir, "--out", out, "--limit", String(limit), "--checkpoints", "memory", ...args, ...extra);
  expect(run.code, run.out + run.err).toBe(0);
  const records = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; calls: number; failure?: string; usageByRole: Record<string, unknown> });
  expect(records).toHaveLength(limit);
  for (const r of records) {
    expect(r.failure, `${graph} ${r.id}`).toBeUndefined();
    expect(Object.keys(r.usageByRole)).not.toContain("embedder");
  }
  return { measured: records.map((r) => ({ id: r.id, calls: r.calls, roles: Object.entries(r.usageByRole).map(([role, u]) => `${role} ${(u as { calls: number }).calls}`) })), options };
}

const initial = (file = "initial.json") => ["--initial", path.join(dir, file), "--correct", "all"];

/** Graph, its flags (camelCase keys), extra launcher flags, questions. */
const WELL_BEHAVED: [string, Flags, () => string[], number][] = [
  ["baseline", {}, () => [], 3],
  ["baseline", { link: true, maxFixRounds: "1" }, () => [], 2],
  ["repair", {}, () => initial(), 3],
  ["magic", {}, () => [...initial(), "--guideline", path.join(dir, "guideline.md")], 2],
  ["r3", { kShot: "0" }, () => [], 2],
  ["r3", { reviewers: "1", kShot: "0", maxReviewTurns: "2" }, () => [], 2],
  ["r3", { reviewers: "0", kShot: "0" }, () => [], 2],
  ["r3-review", { reviewers: "2" }, () => initial(), 3],
  ["memo-sql", { noIcl: true }, () => [], 1],
  ["memo-sql", { styles: "1", noReflect: true, noIcl: true }, () => [], 2],
  ["memo-sql", { noReact: true, noRefine: true, noLinking: true, noIcl: true }, () => [], 1],
  ["memo-refine", {}, () => initial(), 3],
  ["ts-sql", {}, () => [], 2],
  ["ts-sql", { noInspection: true, noDataAgent: "schema" }, () => [], 2],
  ["ts-sql-refine", {}, () => initial(), 2],
  ["self-consistency", { samples: "3" }, () => initial(), 2],
  ["multiple-prompt", { samples: "4" }, () => initial(), 2],
  ["self-debugging", { maxTurns: "2" }, () => initial(), 3],
];

describe("declared calls per question hold what eval measures", () => {
  it("every graph in the registry declares its calls (a new graph too: it then joins the cases below)", () => {
    expect(graphManifests.map((m) => m.name)).toEqual(expect.arrayContaining(["baseline", "repair", "magic", "magic-feedback", "magic-guideline", "r3", "r3-review", "memo-sql", "memo-refine", "ts-sql", "ts-sql-refine"]));
    for (const manifest of graphManifests) {
      expect(manifest.calls, manifest.name).toBeTypeOf("function");
      const bounds = expectedCalls(manifest.name)!;
      expect(bounds.min, manifest.name).toBeLessThanOrEqual(bounds.max);
    }
    expect(expectedCalls({ name: "undeclared" })).toBeUndefined();
    // Flag names with raw values (a recipe's options) count as camelCase keys with parsed values do.
    expect(expectedCalls("r3", { "--reviewers": "1", "max-review-turns": "2", "max-debug-turns": 0 })).toEqual(expectedCalls("r3", { reviewers: 1, maxReviewTurns: 2, maxDebugTurns: 0 }));
    expect(expectedCalls("baseline", { "max-fix-rounds": "1", link: true })).toEqual({ min: 2, max: 5, typical: 2 });
    expect(expectedCalls("ts-sql", { "coder-models": "a,b", "code-vote": "select" })!.max).toBe(expectedCalls("ts-sql", { coderModels: ["a", "b"], codeVote: "select" })!.max);
    // A second coder model: its 6 turns in each of the 3 data rounds (a round whose codes find no answer goes back to the
    // data agent), and one selector call.
    expect(expectedCalls("ts-sql", { coderModels: ["a", "b"], codeVote: "select" })!.max).toBe(expectedCalls("ts-sql")!.max + 6 * 3 + 1);
    expect(expectedCalls("magic-guideline", { "max-unusable-retries": "2" })!.max).toBe(3);
    expect(() => expectedCalls("r3", { reviewers: "many" })).toThrow("--reviewers takes a whole number, not 'many'");
    expect(() => expectedCalls({ name: "broken", calls: () => ({ min: 3, max: 2 }) })).toThrow("graph 'broken' declares impossible call bounds");
  });

  for (const [graph, flags, extra, limit] of WELL_BEHAVED) {
    it(`${graph} ${JSON.stringify(flags)}: each question's calls within [min, max]`, async () => {
      respond = agents.respond;
      const { measured, options } = await measure(graph, flags, extra(), limit);
      const bounds = expectedCalls(graph, options)!;
      for (const m of measured) {
        expect(m.calls, `${graph} question ${m.id}: ${m.calls} calls (${m.roles.join(", ")}), declared ${JSON.stringify(bounds)}`).toBeGreaterThanOrEqual(bounds.min);
        expect(m.calls, `${graph} question ${m.id}: ${m.calls} calls, declared ${JSON.stringify(bounds)}`).toBeLessThanOrEqual(bounds.max);
      }
      // The shortest path is reached where the agents take it: baseline's right question, magic always, every sample in one request.
      if (graph === "baseline" && !flags.link) expect(measured.find((m) => m.id === dev[2]!.id)!.calls).toBe(bounds.min);
      if (graph === "self-consistency") expect(measured.map((m) => m.calls)).toEqual(measured.map(() => 1));
      if (graph === "magic") expect(measured.map((m) => m.calls)).toEqual([bounds.min, bounds.min]);
    });
  }

  it("a corrector's run adds its initial generator's calls (expectedCalls with initial)", async () => {
    respond = agents.respond;
    const { measured } = await measure("repair", {}, ["--initial", "baseline", "--correct", "all"], 3);
    const bounds = expectedCalls("repair", {}, { graph: "baseline", correct: "all" })!;
    expect(bounds).toEqual({ min: 1, max: 7 });
    for (const m of measured) expect(m.calls).toBeGreaterThanOrEqual(bounds.min), expect(m.calls).toBeLessThanOrEqual(bounds.max);
    expect(expectedCalls("repair", {}, { correct: "errors" })!.min).toBe(0);
  });
});

// ---- adversaries: every loop at its bound ----

const lastUser = (req: ChatRequestRecord) => req.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
const allText = (req: ChatRequestRecord) => req.messages.map((m) => m.content).join("\n");
/** Re-asks of a structured ask so far (callStructured sends the invalid reply back with this line). */
const structuredReasks = (req: ChatRequestRecord) => req.messages.filter((m) => m.role === "user" && m.content.startsWith("That reply was not usable")).length;
/**
 * A structured reply that is JSON (so the client's json_schema parsing passes and no format fallback happens — that
 * extra call is not counted in the bounds) but matches no agent's schema: a re-ask.
 */
const GARBAGE: ScriptedReply = { content: JSON.stringify(Object.fromEntries(["keywords", "reviewers", "simple", "fits", "subQuestions", "problem", "wrong", "tables"].map((k) => [k, { not: "this" }]))) };
let unique = 0;
/** SQL no earlier reply gave (so no consensus, no shared verdict), and that never executes. */
const failingSql = (): ScriptedReply => ({ content: `\`\`\`sql\nSELECT v${++unique} FROM missing_table_${unique}\n\`\`\`` });
/** SQL no earlier reply gave, that executes. */
const freshSql = (): ScriptedReply => ({ content: `\`\`\`sql\nSELECT ${++unique} AS v\n\`\`\`` });
/** Structured roles: unusable until the last attempt, then `valid`. */
const lastAttempt = (req: ChatRequestRecord, attempts: number, valid: () => ScriptedReply) => (structuredReasks(req) < attempts - 1 ? GARBAGE : valid());
const json = (value: unknown): ScriptedReply => ({ content: JSON.stringify(value) });
const roleOf = (req: ChatRequestRecord) => req.model.replace(/^agent\//, "");
/** The question asked (the last one a prompt shows: a 1-shot example's comes first). */
const questionIn = (req: ChatRequestRecord) => [...allText(req).matchAll(/^Question: (.*)$/gm)].at(-1)?.[1]?.trim() ?? "";
/** A reply's fenced JSON alone (prose around it would set off the client's format fallback under json_schema: an uncounted call). */
const bareJson = (reply: ScriptedReply): ScriptedReply => ({ content: /```json\n([\s\S]*?)\n```/.exec((reply as { content: string }).content)![1]! });

/** Data turns per question so far (the adversarial data agent gives rows only in its last round). */
const dataTurns = new Map<string, number>();

function adversary(opts: { dataRounds?: number } = {}) {
  return (req: ChatRequestRecord): ScriptedReply => {
    const role = roleOf(req);
    switch (role) {
      case "linker":
        return GARBAGE;
      case "persona":
        // Unusable until the last attempt, then a panel of nobody (a one-letter profession): the missing reviewers are
        // asked for again, with the same result.
        return lastAttempt(req, 3, () => json({ reviewers: [{ profession: "x", focus: "" }] }));
      case "generator":
      case "fixer":
        return failingSql();
      case "writer": {
        // R³'s writer: no SQL until its last re-ask, then SQL that fails (and differs from all before it).
        if (lastUser(req).includes("sub-questions were solved")) return freshSql(); // Memo-SQL's writer: one call a style
        let reasks = 0;
        for (const m of [...req.messages].reverse().filter((x) => x.role === "user")) {
          if (m.content !== reaskTurn()) break;
          reasks++;
        }
        return reasks >= MAX_SQL_REASKS ? failingSql() : { content: "Let me think about the tables first." };
      }
      case "reviewer":
        return { content: "The filter is wrong: the result cannot answer the question." };
      case "explainer":
        return { content: "The query misses a condition.\nVerdict: wrong" };
      case "debugger":
      case "sampler":
        return freshSql();
      case "decomposer":
        return lastAttempt(req, 3, () =>
          allText(req).includes("Random seed ")
            ? // Each path its own plan (its seed in every sub-question): identical plans would be solved once. As many
              // sub-questions as the schema allows (maxItems): one more would be a reply outside it, re-asked.
              json({ simple: false, fits: true, subQuestions: ["a", "b", "c", "d", "e", "f", "g"].slice(0, MAX_SUB_QUESTIONS).map((x) => `${x} (${/Random seed (\w+)/.exec(allText(req))![1]})?`) })
            : json({ simple: false, fits: false, subQuestions: [] }),
        );
      case "solver":
      case "refiner":
        return freshSql();
      case "reflector":
        return lastAttempt(req, 3, () => json({ problem: true, issue: "the filter misses a condition" }));
      case "critic":
        return lastAttempt(req, 3, () => json({ wrong: true, errorTypes: ["filter_condition_error"], suggestions: "add the condition" }));
      case "data": {
        if (structuredReasks(req) === 0) return GARBAGE;
        const q = questionIn(req);
        const turn = (dataTurns.get(q) ?? 0) + 1;
        dataTurns.set(q, turn);
        const full = bareJson(agents.respond(req));
        // The question's rows every turn, each turn's first rows written once more (their keys renumbered before
        // loading): every turn's prompt shows other rows, so none repeats the last one's (that would stop the turns).
        const tables = (JSON.parse((full as { content: string }).content) as { tables: Record<string, Record<string, unknown>[]> }).tables;
        return json({ tables: Object.fromEntries(Object.entries(tables).map(([t, rows]) => [t, rows.length ? [...rows, ...Array.from({ length: turn - 1 }, () => rows[0]!)] : rows])) });
      }
      case "coder":
      case "coder2":
      case "coder3": {
        // Before the last data turn: no answer (another code each turn, or a repeat would end the loop), so after its
        // turns the vote sends the question back to the data agent. Then a result (each coder model its own), but no
        // comments: inspection sends it back every time.
        const last = (dataTurns.get(questionIn(req)) ?? 0) >= (opts.dataRounds ?? 1);
        return { content: `\`\`\`javascript\nconst k${++unique} = 0;\nresult = ${last ? `[{ v: \"${role}\" }]` : "[]"};\n\`\`\`` };
      }
      case "reviser":
        // Another SQL each time, failing the test: a revision whose SQL does not change would stop the loop.
        return freshSql();
      default:
        return agents.respond(req);
    }
  };
}

/** Graph, flags, extra launcher flags, questions, adversary options. */
const AT_THE_LIMIT: [string, Flags, () => string[], number, { dataRounds?: number; n?: NMode }][] = [
  ["baseline", { link: true, maxFixRounds: "2" }, () => [], 2, {}],
  ["self-debugging", { maxTurns: "3" }, () => initial("failing.json"), 2, {}],
  // A server that refuses n: the refused request, then one per sample.
  ["self-consistency", { samples: "5" }, () => initial("failing.json"), 1, { n: "refuse" }],
  ["repair", { maxFixRounds: "3" }, () => initial("failing.json"), 2, {}],
  ["r3", { reviewers: "1", maxDebugTurns: "1", maxReviewTurns: "2", kShot: "0" }, () => [], 1, {}],
  ["r3", { reviewers: "3", maxDebugTurns: "2", maxReviewTurns: "1", kShot: "0" }, () => [], 1, {}],
  ["r3-review", { reviewers: "2", maxDebugTurns: "1", maxReviewTurns: "2" }, () => initial("failing.json"), 1, {}],
  ["memo-sql", { styles: "1", refineRounds: "1", noIcl: true }, () => [], 1, {}],
  ["memo-sql", { styles: "2", refineRounds: "1", noIcl: true, decomposition: "random", noReflect: true }, () => [], 1, {}],
  ["memo-refine", { refineRounds: "2" }, () => initial(), 2, {}],
  // Nine candidates a question from a candidates file (as many as memo-sql writes), each refined to the bound.
  ["memo-refine", { refineRounds: "1", candidates: "nine.json" }, () => initial(), 2, {}],
  ["ts-sql", { maxDataRounds: "2", maxCodeRefinements: "2", maxRevisions: "2" }, () => [], 1, { dataRounds: 2 }],
  // (SQL that never runs on the rows: an SQL that found nothing there would end each coder loop at its first empty result.)
  ["ts-sql-refine", { maxDataRounds: "3", maxCodeRefinements: "1", maxRevisions: "3" }, () => initial("failing.json"), 1, { dataRounds: 3 }],
  ["ts-sql-refine", { noInspection: true, maxDataRounds: "1", maxRevisions: "2" }, () => initial(), 1, {}],
  // Three coder models with three different results: the selector compares them in two A/B calls.
  ["ts-sql-refine", { coderModels: ["agent/coder", "agent/coder2", "agent/coder3"], codeVote: "select", maxDataRounds: "1", maxCodeRefinements: "1", maxRevisions: "1" }, () => initial(), 1, {}],
];

describe("with every loop at its bound, a question costs exactly the declared max", () => {
  for (const [graph, flags, extra, limit, opts] of AT_THE_LIMIT) {
    it(`${graph} ${JSON.stringify(flags)}`, async () => {
      dataTurns.clear();
      respond = adversary(opts);
      server.n = opts.n ?? "honour";
      const { measured, options } = await measure(graph, flags, extra(), limit).finally(() => (server.n = "honour"));
      const { max } = expectedCalls(graph, options)!;
      for (const m of measured) expect(m.calls, `${graph} question ${m.id} (${m.roles.join(", ")})`).toBe(max);
    });
  }
});

// ---- MAGIC's training cycle: run by 'sqlmend magic guideline', not eval ----

interface MagicMeasured {
  /** calls: requests sent; reused: replies the question's identical earlier request gave (not sent). */
  perQuestion: { id: string; calls: number; reused: number; roles: string }[];
  merges: number;
  mergeCalls: number;
}

/** `sqlmend magic guideline` on dev questions from a predictions file: each cycled question's calls, and the merges' calls. */
async function measureMagic(flags: Flags, limit: number): Promise<MagicMeasured & { options: Flags; code: number }> {
  const { args, options } = argsOf(flags);
  const out = path.join(dir, "runs", `magic-guideline-${Math.random().toString(36).slice(2, 8)}`);
  const before = server.requests.length;
  const run = await sqlmend("magic", "guideline", "--bench", benchDir, "--split", "dev", "--limit", String(limit), "--initial", path.join(dir, "magic-initial.json"), "--out", out, "--checkpoints", "memory", ...args);
  // Only a merge may fail (the last case makes it): every cycle must finish.
  expect(run.err.replace(/^.*merge.*$/gim, "")).not.toMatch(/failed|error/i);
  const records = fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as { id: string; initialCorrect: boolean; usageByRole: Record<string, { calls: number; reused?: number }> });
  const cycled = records.filter((r) => !r.initialCorrect);
  expect(cycled).toHaveLength(limit);
  const mergeRequests = server.requests.slice(before).filter((r) => roleOf(r) === "manager" && allText(r).includes("You maintain a self-correction guideline"));
  const stats = JSON.parse(fs.readFileSync(path.join(out, "stats.json"), "utf8")) as { batchesMerged: number };
  return {
    perQuestion: cycled.map((r) => ({ id: r.id, calls: Object.values(r.usageByRole).reduce((n, u) => n + u.calls, 0), reused: Object.values(r.usageByRole).reduce((n, u) => n + (u.reused ?? 0), 0), roles: JSON.stringify(r.usageByRole) })),
    merges: stats.batchesMerged,
    mergeCalls: mergeRequests.length,
    options,
    code: run.code,
  };
}

const goldOf = (req: ChatRequestRecord) => dev.find((q) => q.question === questionIn(req))?.goldSql ?? "SELECT 1";

/**
 * MAGIC's agents at every bound: feedback that writes out the gold SQL (refused, re-asked, redacted), revisions that
 * never correct, a manager whose revised instructions are empty (re-asked) or give the gold away (re-asked).
 */
const magicAdversary = (req: ChatRequestRecord): ScriptedReply => {
  const role = roleOf(req);
  const prompt = allText(req);
  if (role === "feedback") return { content: `The query should be exactly: ${goldOf(req)}` };
  if (role === "corrector") return freshSql();
  if (role === "manager") {
    const unusable = req.messages.filter((m) => m.role === "user" && m.content.startsWith("That reply cannot be used as the agent's instructions")).length;
    if (prompt.includes("It corrects an SQL query using an expert's feedback") && unusable >= 1) return { content: `Tell the agent to write exactly this query: ${goldOf(req)}` };
    return { content: "" };
  }
  return agents.respond(req);
};

describe("magic-feedback and magic-guideline through 'sqlmend magic guideline'", () => {
  beforeAll(async () => {
    // Wrong but executing initial SQL that shares nothing with the gold: every question enters the cycle.
    await writeBirdPredictions(path.join(dir, "magic-initial.json"), dev.slice(0, 3).map((q) => ({ id: q.id, dbId: q.dbId, sql: "SELECT 'no such answer' AS v" })));
  });

  // The agents' corrector writes the gold at once: every cycle takes the shortest path.
  it("well-behaved agents: each cycle costs magic-feedback's min, each merge magic-guideline's min", async () => {
    respond = agents.respond;
    const m = await measureMagic({ batch: "1" }, 2);
    expect(m.code).toBe(0);
    for (const q of m.perQuestion) expect(q.calls, q.roles).toBe(expectedCalls("magic-feedback", m.options)!.min);
    expect(m.merges).toBe(2);
    expect(m.mergeCalls).toBe(m.merges * expectedCalls("magic-guideline", m.options)!.min);
  });

  it("without the manager, the feedback agent judging the first revision correct: magic-feedback's min", async () => {
    respond = agents.respond;
    const m = await measureMagic({ noManager: true }, 1);
    expect(m.code).toBe(0);
    for (const q of m.perQuestion) expect(q.calls, q.roles).toBe(expectedCalls("magic-feedback", m.options)!.min);
  });

  it("every loop at its bound: each cycle costs exactly magic-feedback's max", async () => {
    respond = magicAdversary;
    const m = await measureMagic({ maxIter: "3" }, 2);
    expect(m.code).toBe(0);
    const { max } = expectedCalls("magic-feedback", m.options)!;
    // The adversary repeats itself word for word: a repeated request gets the question's earlier reply, not sent
    // (model calls count requests sent). Asked in all: exactly max.
    for (const q of m.perQuestion) expect(q.calls + q.reused, q.roles).toBe(max), expect(q.calls).toBeLessThan(max);
  });

  it("without the manager, the judge never satisfied: exactly max", async () => {
    respond = (req) => (roleOf(req) === "feedback" && allText(req).includes('"correct"') ? lastAttempt(req, 3, () => json({ correct: false, reason: "no" })) : magicAdversary(req));
    const m = await measureMagic({ maxIter: "3", noManager: true }, 1);
    const { max } = expectedCalls("magic-feedback", m.options)!;
    for (const q of m.perQuestion) expect(q.calls + q.reused, q.roles).toBe(max), expect(q.calls).toBeLessThan(max);
  });

  it("a merge whose guideline is never usable costs exactly magic-guideline's max", async () => {
    respond = (req) => (roleOf(req) === "manager" && allText(req).includes("You maintain a self-correction guideline") ? { content: "No numbered reminders here." } : agents.respond(req));
    const m = await measureMagic({ maxUnusableRetries: "2", batch: "5" }, 2);
    expect(m.code).toBe(3); // the merge failed: a resumed run retries it
    expect(m.merges).toBe(0);
    expect(m.mergeCalls).toBe(expectedCalls("magic-guideline", m.options)!.max);
  });
});

// ---- the shortest path: every agent right at once ----

/** Graph, flags, extra launcher flags, questions. */
const SHORTEST: [string, Flags, () => string[], number][] = [
  ["baseline", {}, () => [], 1],
  ["self-debugging", {}, () => initial("gold.json"), 1],
  ["baseline", { link: true }, () => [], 1],
  ["repair", {}, () => initial("gold.json"), 1],
  ["r3", { kShot: "0" }, () => [], 1],
  ["r3", { reviewers: "1", kShot: "0" }, () => [], 1],
  ["r3", { reviewers: "0", kShot: "0" }, () => [], 1],
  ["r3-review", {}, () => initial("gold.json"), 1],
  ["memo-sql", { noIcl: true }, () => [], 1],
  ["memo-sql", { styles: "1", noReflect: true, noIcl: true }, () => [], 1],
  ["memo-sql", { noReact: true, noRefine: true, noIcl: true }, () => [], 1],
  ["memo-refine", {}, () => initial("gold.json"), 1],
  ["ts-sql", {}, () => [], 1],
  ["ts-sql", { noInspection: true }, () => [], 1],
  ["ts-sql-refine", {}, () => initial("gold.json"), 1],
];

describe("on the shortest path (every agent right at once), a question costs exactly the declared min", () => {
  let cooperative: MethodAgents;
  beforeAll(async () => {
    const train = (await loadBenchmark(benchDir, { split: "train" })).questions;
    cooperative = methodAgents({ questions: [dev, train], initial: () => "right" });
    await writeBirdPredictions(path.join(dir, "gold.json"), dev.slice(0, 3).map((q) => ({ id: q.id, dbId: q.dbId, sql: q.goldSql! })));
  });

  for (const [graph, flags, extra, limit] of SHORTEST) {
    it(`${graph} ${JSON.stringify(flags)}`, async () => {
      respond = (req) => {
        const role = roleOf(req);
        // Memo-SQL's decomposer judges the question simple: one sub-question a path.
        if (role === "decomposer") return json({ simple: true, fits: true, subQuestions: [] });
        return role === "data" ? bareJson(cooperative.respond(req)) : cooperative.respond(req);
      };
      const { measured, options } = await measure(graph, flags, extra(), limit);
      const { min } = expectedCalls(graph, options)!;
      for (const m of measured) expect(m.calls, `${graph} question ${m.id} (${m.roles.join(", ")})`).toBe(min);
    });
  }
});
