/**
 * The extension guides never rot (issue 26, point 9): every TypeScript block in docs/guides/*.md is a file under
 * examples/guides/ (type-checked with the project by `npm run typecheck`, as a user's `import ... from "sqlmend"`),
 * word for word, and each example runs as the guide says — through the launcher against the local OpenAI-compatible
 * server, or as a script in its own Node process.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { minibenchFixture, resultsOf, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { agentsConfig, methodAgents } from "./support/method-agents.ts";
import { type ChatRequestRecord, type OpenAIServer, type ScriptedReply, startOpenAIServer } from "./support/openai-server.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const GUIDES = ["docs/guides/new-node.md", "docs/guides/new-method.md"];

/** The guide's blocks of a language, each with the `<!-- example: FILE -->` marker right above it (if any). */
function blocksOf(guide: string, lang: string): { file?: string; code: string }[] {
  const text = fs.readFileSync(path.join(ROOT, guide), "utf8");
  return [...text.matchAll(new RegExp(`(?:<!-- example: (\\S+) -->\\n)?\`\`\`${lang}\\n([\\s\\S]*?)\`\`\`\\n`, "g"))].map((m) => ({ ...(m[1] ? { file: m[1] } : {}), code: m[2]! }));
}

describe("the guides' code is the examples' code", () => {
  for (const guide of GUIDES) {
    it(`${guide}: every TypeScript block is an example file, word for word; every link resolves`, () => {
      const blocks = blocksOf(guide, "ts");
      expect(blocks.length).toBeGreaterThan(0);
      for (const block of blocks) {
        expect(block.file, `a ts block of ${guide} without its example marker`).toBeDefined();
        expect(fs.readFileSync(path.join(ROOT, block.file!), "utf8"), `${guide} shows ${block.file} as it is`).toBe(block.code);
      }
      const text = fs.readFileSync(path.join(ROOT, guide), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)#:]+)(?:#[^)]*)?\)/g)) expect(fs.existsSync(path.join(ROOT, path.dirname(guide), target!)), `${guide} links ${target}`).toBe(true);
    });
  }
});

let dir: string;
let benchDir: string;
let dev: Question[];
let server: OpenAIServer;
const generatorPrompts: string[] = [];

/** The example files as a user has them beside their project: `from "sqlmend"` is the package (here, its sources). */
function copyExamples(to: string) {
  fs.mkdirSync(to, { recursive: true });
  for (const file of fs.readdirSync(path.join(ROOT, "examples/guides"))) {
    const text = fs.readFileSync(path.join(ROOT, "examples/guides", file), "utf8").replaceAll('from "sqlmend"', `from ${JSON.stringify(path.join(ROOT, "index.ts"))}`);
    fs.writeFileSync(path.join(to, file), text);
  }
  // An ESM project, as the examples are written for (top-level await).
  fs.writeFileSync(path.join(to, "package.json"), JSON.stringify({ type: "module", private: true }));
  if (!fs.existsSync(path.join(to, "node_modules"))) fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(to, "node_modules"), "dir");
}

const fenced = (sql: string): ScriptedReply => ({ content: `\`\`\`sql\n${sql}\n\`\`\`` });
const lastText = (req: ChatRequestRecord) => req.messages.at(-1)?.content ?? "";

/** The agents of the guides' examples: the generator writes the gold (SELECT 42 first for question 0), the verifier objects to anything but the gold. */
function respond(req: ChatRequestRecord): ScriptedReply {
  const text = lastText(req);
  const q = dev.find((d) => text.includes(`Question: ${d.question}\n`));
  if (text.includes("Does the result answer the question?")) return { content: q && text.includes(`SQL: ${q.goldSql}\n`) ? "yes" : "no: that is not what was asked" };
  if (text.includes("A reviewer said")) return fenced(q?.goldSql ?? "SELECT 1");
  generatorPrompts.push(text);
  return fenced(q?.id === "0" ? "SELECT 42" : (q?.goldSql ?? "SELECT 1"));
}

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  copyExamples(dir);
  server = await startOpenAIServer({ respond });
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

const env = () => ({ OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" });
const model = () => ["--model", "m", "--base-url", server.url, "--max-retries", "0", "--limit", "4"];

describe("the guides' examples run as the guides say", () => {
  it("new-node: the plan-first generator swaps baseline's generate, with its own --plan-steps", async () => {
    const out = path.join(dir, "plan");
    generatorPrompts.length = 0;
    const run = await runCli(["eval", "baseline", "--node", "generate=./plan-first-generate.ts", "--plan-steps", "2", "--bench", benchDir, "--out", out, ...model()], dir, env());
    expect(run.code).toBe(0);
    expect(generatorPrompts.length).toBeGreaterThanOrEqual(4);
    expect(generatorPrompts.every((p) => p.includes("List at most 2 steps"))).toBe(true);
    const records = [...(await resultsOf(out)).values()];
    expect(records.filter((r) => r.correct === true)).toHaveLength(3);
    expect(JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8")).settings["plan-steps"]).toBe(2);
    const help = await runCli(["eval", "baseline", "--node", "generate=./plan-first-generate.ts", "--help"], dir, env());
    expect(help.out).toMatch(/--plan-steps N\s+steps the generator plans before it writes SQL \(default 3\)/);
  }, 60_000);

  it("new-node: the helpers' example — three samples at a per-call temperature, each run, kept as candidates", async () => {
    const out = path.join(dir, "helpers");
    generatorPrompts.length = 0;
    const run = await runCli(["eval", "baseline", "--node", "generate=./node-helpers.ts", "--bench", benchDir, "--out", out, "--checkpoints", path.join(dir, "helpers.sqlite"), ...model()], dir, env());
    expect(run.code, run.err).toBe(0);
    expect(generatorPrompts.length).toBe(12);
    const records = [...(await resultsOf(out)).values()];
    expect(records.filter((r) => r.correct === true)).toHaveLength(3);
    expect(records.every((r) => r.calls === 3)).toBe(true);
  }, 60_000);

  it("new-node: the same swap in a script, in a Node process of its own", async () => {
    const db = dev[1]!;
    const tsx = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
    // Not execFileSync: the model server answers from this process's event loop.
    const { stdout: printed } = await promisify(execFile)(process.execPath, [tsx, path.join(dir, "swap-in-a-script.ts"), db.dbPath, db.question], {
      cwd: dir,
      env: { ...process.env, ...env(), OPENAI_BASE_URL: server.url, SQLMEND_MODEL: "m" },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(printed.trim()).toBe(db.goldSql);
    expect(generatorPrompts.at(-1)).toContain("List at most 2 steps");
  }, 60_000);

  it("new-node: Memo-SQL without its critic — no critic is asked, every question answered", async () => {
    const memoDir = path.join(dir, "memo");
    copyExamples(memoDir);
    const agents = methodAgents({ questions: [dev] });
    const memoServer = await startOpenAIServer({ respond: agents.respond });
    try {
      fs.writeFileSync(path.join(memoDir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: memoServer.url })));
      const out = path.join(memoDir, "out");
      const run = await runCli(["eval", "memo-sql", "--node", "critic=./accept-all-critic.ts", "--bench", benchDir, "--out", out, "--limit", "2", "--max-retries", "0"], memoDir, env());
      expect(run.code).toBe(0);
      expect(agents.calls.get("critic") ?? 0).toBe(0);
      expect(agents.calls.get("writer") ?? 0).toBeGreaterThan(0);
      const records = [...(await resultsOf(out)).values()];
      expect(records).toHaveLength(2);
      expect(records.every((r) => !r.failure && typeof r.sql === "string" && (r.sql as string).length > 0)).toBe(true);
    } finally {
      await memoServer.close();
    }
  }, 120_000);

  it("new-method: the verify graph runs by --graph: the verifier's objection rewrites question 0, its outcome says so", async () => {
    const out = path.join(dir, "verify");
    const run = await runCli(["eval", "--graph", "./verify-graph.ts", "--bench", benchDir, "--out", out, ...model()], dir, env());
    expect(run.code).toBe(0);
    const records = await resultsOf(out);
    expect([...records.values()].every((r) => r.correct === true)).toBe(true);
    expect((records.get("0")!.outcome as { regenerations: number }).regenerations).toBe(1);
    expect((records.get("1")!.outcome as { regenerations: number }).regenerations).toBe(0);
    expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toMatch(/regenerations: mean 0\.25, max 1/);
    const help = await runCli(["eval", "--graph", "./verify-graph.ts", "--help"], dir, env());
    expect(help.out).toMatch(/Options of verify:\n\s+--max-regenerations N/);
  }, 60_000);
});
