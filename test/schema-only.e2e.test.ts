/**
 * Issue 40: every structured reply a schema allows is accepted. The local server's schema-only stand-in answers each
 * structured request from its JSON schema alone, as constrained decoding would (test/support/schema-replies.ts); the
 * scripted agents answer the rest. Each graph runs against it through the launcher; the schemas it sent are collected,
 * each is strict-mode ready, and many seeded replies generated from each are accepted by the role's validator.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { z } from "zod";
import { KeywordsSchema } from "../nodes/link.ts";
import { PersonasReply } from "../nodes/r3/personas.ts";
import { DecompositionSchema, ReflectionSchema } from "../nodes/memo/solve.ts";
import { CriticSchema } from "../nodes/memo/correct.ts";
import { LabelSchema } from "../nodes/memo/common.ts";
import { VerdictSchema } from "../nodes/magic/cycle.ts";
import { dataReplySchema, rowsOfReply } from "../nodes/ts-sql/data.ts";
import { sentJsonSchema } from "../tools/models/llm.ts";
import { readSchema } from "../tools/schema.ts";
import type { Question } from "../state/question.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type ChatRequestRecord, type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";
import { agentsConfig, methodAgents } from "./support/method-agents.ts";
import { type Json, requestedSchema, sampleFromSchema, seededRandom } from "./support/schema-replies.ts";
import { minibenchFixture, resultsOf, runCli } from "./support/cli.ts";

let dir: string;
let benchDir: string;
let dev: Question[];
let train: Question[];
const servers: OpenAIServer[] = [];

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  train = (await loadBenchmark(benchDir, { split: "train" })).questions;
});
afterAll(async () => {
  await Promise.all(servers.map((s) => s.close()));
  removeTempDir(dir);
});

/** A folder whose sqlmend.config.json points every role at a server with the stand-in (`content`) and the scripted agents. */
async function standIn(name: string, seed: number, content: "random" | "fit" = "random"): Promise<{ cwd: string; server: OpenAIServer }> {
  const agents = methodAgents({ questions: [dev, train] });
  const server = await startOpenAIServer({ respond: agents.respond, schemaOnly: { seed, content, onReply: agents.onSchemaReply } });
  servers.push(server);
  const cwd = path.join(dir, name);
  fs.mkdirSync(cwd, { recursive: true });
  fs.writeFileSync(path.join(cwd, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
  return { cwd, server };
}

const sqlmend = (cwd: string, ...args: string[]) => runCli(args, cwd, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(cwd, "home") });
const roleOf = (req: ChatRequestRecord) => req.model.replace(/^agent\//, "");
/** A request that sends a refused reply back ("That reply was not usable (...)"): the validator refused what the schema allowed. */
const reasked = (req: ChatRequestRecord) => req.messages.some((m) => m.role === "user" && m.content.startsWith("That reply was not usable"));

/** Keywords strict structured-output modes take (OpenAI's strict mode the narrowest): anything else is a problem. */
const STRICT_KEYWORDS = new Set(["$schema", "type", "properties", "required", "additionalProperties", "items", "enum", "anyOf", "minItems", "maxItems", "description"]);
function strictProblems(node: unknown, at = "$"): string[] {
  if (!node || typeof node !== "object" || Array.isArray(node)) return [];
  const o = node as Record<string, unknown>;
  const out = Object.keys(o).filter((k) => !STRICT_KEYWORDS.has(k)).map((k) => `${at}: keyword ${k}`);
  if (o.type === "object") {
    const props = Object.keys((o.properties as object | undefined) ?? {});
    if (o.additionalProperties !== false) out.push(`${at}: additionalProperties is not false`);
    if (props.some((p) => !((o.required as string[] | undefined) ?? []).includes(p))) out.push(`${at}: not every property required`);
  }
  for (const [k, v] of Object.entries(o)) {
    if (k === "properties") for (const [p, sub] of Object.entries(v as object)) out.push(...strictProblems(sub, `${at}.${p}`));
    else if (k === "items" || k === "additionalProperties") out.push(...strictProblems(v, `${at}.${k}`));
    else if (k === "anyOf") (v as unknown[]).forEach((b, i) => out.push(...strictProblems(b, `${at}.anyOf[${i}]`)));
  }
  return out;
}

/** Each role's validator, as its node calls callStructured with it (TS-SQL's data agent has its own test below). */
const VALIDATORS: Record<string, z.ZodType> = {
  linker: KeywordsSchema,
  persona: PersonasReply,
  decomposer: DecompositionSchema,
  reflector: ReflectionSchema,
  critic: CriticSchema,
  labeler: LabelSchema,
  feedback: VerdictSchema,
};

/** Seeded replies a JSON schema allows, odd strings and numbers or a prompt's values in turn. */
function samples(schema: unknown, n: number, seed: number, words: string[] = []): Json[] {
  const rng = seededRandom(seed);
  return Array.from({ length: n }, (_, i) => sampleFromSchema(schema, { rng, ...(i % 2 ? { words, numbers: [2014, 3.5] } : {}) }));
}

describe("schemas that say everything the validator checks", () => {
  it("a data reply built from the data agent's schema alone validates (every minibench database, all its tables)", async () => {
    const problems: string[] = [];
    for (const dbPath of [...new Set(dev.map((q) => q.dbPath))]) {
      const schema = await readSchema(dbPath);
      const tables = schema.tables.map((t) => t.name);
      const validator = dataReplySchema(schema, tables);
      const sent = sentJsonSchema(validator);
      expect(strictProblems(sent)).toEqual([]);
      for (const [i, reply] of samples(sent, 150, 40 + problems.length, ["Physics", "2021"]).entries()) {
        const parsed = validator.safeParse(reply);
        if (!parsed.success) problems.push(`${path.basename(dbPath)} reply ${i}: ${parsed.error.issues[0]?.message}`);
        else {
          // Every row holds every asked column, none named twice.
          const rows = rowsOfReply(parsed.data.tables as never);
          for (const t of schema.tables) for (const row of rows[t.name] ?? []) expect(Object.keys(row)).toEqual(t.columns.map((c) => c.name));
        }
      }
    }
    expect(problems.slice(0, 5)).toEqual([]);
  });

  it("every structured request of every graph, answered from its schema alone: accepted, never re-asked, strict-mode ready", async () => {
    const seen: ChatRequestRecord[] = [];
    for (const seed of [1, 2]) {
      const { cwd, server } = await standIn(`property-${seed}`, seed);
      const runs: string[][] = [
        ["eval", "ts-sql", "--limit", "2"],
        ["eval", "r3", "--limit", "2", "--reviewers", "2"],
        ["eval", "memo-sql", "--limit", "1", "--styles", "1", "--refine-rounds", "1"],
      ];
      for (const args of runs) {
        const out = path.join(cwd, "runs", args[1]!);
        const run = await sqlmend(cwd, ...args, "--bench", benchDir, "--out", out, "--checkpoints", "memory", "--cache", "off");
        expect(run.code, `${args[1]} seed ${seed}: ${run.out}${run.err}`).toBe(0);
        for (const record of (await resultsOf(out)).values()) expect(record.error, `${args[1]} seed ${seed}`).toBeUndefined();
      }
      const memo = await sqlmend(cwd, "memo", "build", "--bench", benchDir, "--split", "train", "--out", path.join(cwd, "memory.sqlite"), "--limit", "2", "--samples", "4", "--cache", "off");
      expect(memo.code, memo.out + memo.err).toBe(0);
      seen.push(...server.requests.filter((r) => requestedSchema(r)));
    }
    // Every structured role was asked and answered from its schema alone, and no reply went back as unusable.
    const roles = new Set(seen.map(roleOf));
    for (const role of ["linker", "data", "persona", "decomposer", "reflector", "critic", "labeler"]) expect(roles, role).toContain(role);
    expect(seen.every((r) => r.fromSchema)).toBe(true);
    expect(seen.filter(reasked).map(roleOf)).toEqual([]);
    // Strict-mode ready, every one of them.
    const schemas = new Map(seen.map((r) => [JSON.stringify(requestedSchema(r)!.schema), { role: roleOf(r), schema: requestedSchema(r)!.schema }]));
    expect([...schemas.values()].flatMap(({ role, schema }) => strictProblems(schema).map((p) => `${role} ${p}`))).toEqual([]);
    // Many more replies per schema than the runs drew: each validator takes every one.
    const refused: string[] = [];
    let checked = 0;
    for (const [key, { role, schema }] of schemas) {
      const validator = VALIDATORS[role];
      if (!validator) continue;
      for (const reply of samples(schema, 100, key.length)) {
        checked++;
        const parsed = validator.safeParse(reply);
        if (!parsed.success) refused.push(`${role}: ${JSON.stringify(reply).slice(0, 120)}: ${parsed.error.issues[0]?.message}`);
      }
    }
    expect(refused.slice(0, 5)).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(600);
    // The magic no-manager judge's schema: not asked by these runs, checked the same way.
    for (const reply of samples(sentJsonSchema(VerdictSchema), 100, 7)) expect(VerdictSchema.safeParse(reply).success).toBe(true);
  }, 240_000);

  it("TS-SQL builds its test cases with a schema-following data agent", async () => {
    // Values drawn from the schema alone: no reply is unusable, and some test cases are built (0 before issue 40).
    const random = await standIn("rate-random", 1);
    const out = path.join(random.cwd, "run");
    const run = await sqlmend(random.cwd, "eval", "ts-sql", "--bench", benchDir, "--out", out, "--limit", "10", "--checkpoints", "memory", "--cache", "off");
    expect(run.code, run.out + run.err).toBe(0);
    const outcomes = [...(await resultsOf(out)).values()].map((r) => r.outcome as { tested: boolean; skipped: string | null });
    expect(outcomes.filter((o) => o.skipped === "unusable data reply" || o.skipped === "invalid data")).toEqual([]);
    expect(outcomes.filter((o) => o.tested).length).toBeGreaterThanOrEqual(3);
    // The scripted data agent's rows kept where the schema takes them (constrained decoding over that model): the
    // schema costs no test case.
    const fit = await standIn("rate-fit", 1, "fit");
    const fitOut = path.join(fit.cwd, "run");
    const fitRun = await sqlmend(fit.cwd, "eval", "ts-sql", "--bench", benchDir, "--out", fitOut, "--limit", "10", "--checkpoints", "memory", "--cache", "off");
    expect(fitRun.code, fitRun.out + fitRun.err).toBe(0);
    const fitted = [...(await resultsOf(fitOut)).values()].filter((r) => (r.outcome as { tested: boolean }).tested).length;
    expect(fitted).toBeGreaterThanOrEqual(9);
    expect(fit.server.requests.filter(reasked)).toEqual([]);
  }, 180_000);
});

describe("TS-SQL with a schema-following data agent: keys and answers", () => {
  it("join questions get test cases: dangling foreign keys and repeated keys repaired before loading, and counted", async () => {
    // Minibench's join questions (courses ⋈ departments; enrollments ⋈ courses ⋈ departments; customers ⋈ orders ⋈ payments):
    // keys drawn from the schema alone point nowhere or repeat; before issue 40's repair the scratch database refused
    // those rows and the answer on what was left was empty, so no test case.
    const { cwd } = await standIn("join-keys", 1);
    const out = path.join(cwd, "run");
    const run = await sqlmend(cwd, "eval", "ts-sql", "--bench", benchDir, "--out", out, "--ids", "1,4,10", "--checkpoints", "memory", "--cache", "off");
    expect(run.code, run.out + run.err).toBe(0);
    const outcomes = [...(await resultsOf(out)).values()].map((r) => r.outcome as Record<string, number | boolean | string | null>);
    expect(outcomes).toHaveLength(3);
    expect(outcomes.map((o) => o.skipped)).toEqual([null, null, null]);
    // What was repaired is counted per question and summed in report.md.
    const remapped = outcomes.reduce((n, o) => n + Number(o.danglingKeysRemapped ?? 0), 0);
    const renumbered = outcomes.reduce((n, o) => n + Number(o.keysRenumbered ?? 0), 0);
    expect(remapped).toBeGreaterThan(0);
    const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(report).toContain(`(${renumbered} repeated keys renumbered, ${remapped} dangling foreign keys set to a parent's key,`);
    // No row refused for a key: what is left for the scratch database to refuse is what the repair cannot fix.
    expect(outcomes.every((o) => o.dataViolations === 0)).toBe(true);
  }, 120_000);
});

describe("a degenerate run is loud", () => {
  it("R³ without a review round says so on its summary line and in report.md; --strict exits 4", async () => {
    const { cwd } = await standIn("degenerate", 1, "fit");
    const args = ["eval", "r3", "--bench", benchDir, "--limit", "1", "--reviewers", "0", "--checkpoints", "memory", "--cache", "off"];
    const plain = await sqlmend(cwd, ...args, "--out", path.join(cwd, "plain"));
    expect(plain.code, plain.err).toBe(0);
    expect(plain.out).toMatch(/^DEGENERATE RUN: a review round in none of the 1 questions; .*; --strict makes this exit non-zero$/m);
    expect(fs.readFileSync(path.join(cwd, "plain", "report.md"), "utf8")).toMatch(/^- \*\*DEGENERATE RUN: a review round in none of the 1 questions/m);
    const strict = await sqlmend(cwd, ...args, "--out", path.join(cwd, "strict"), "--strict");
    expect(strict.code).toBe(4);
    expect(strict.out).toMatch(/DEGENERATE RUN: .*\(--strict: exit 4\)/);
    // With its reviews, the same run is not degenerate, --strict or not.
    const reviewed = await sqlmend(cwd, ...args.filter((a, i) => a !== "--reviewers" && args[i - 1] !== "--reviewers"), "--reviewers", "1", "--out", path.join(cwd, "reviewed"), "--strict");
    expect(reviewed.code, reviewed.out).toBe(0);
    expect(reviewed.out).not.toMatch(/DEGENERATE/);
  }, 120_000);
});
