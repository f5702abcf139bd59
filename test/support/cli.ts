/**
 * The launcher as tests drive it: `main` with captured output, a minibench fixture, and a model server that answers
 * each question with its gold SQL (found by the question's text in the prompt).
 */
import path from "node:path";
import { spawn } from "node:child_process";
import { main } from "../../cli/main.ts";
import type { CliIO } from "../../cli/shared/command.ts";
import type { Question } from "../../state/question.ts";
import { loadBenchmark } from "../../tools/benchmarks/benchmark.ts";
import { buildMinibench } from "../../tools/benchmarks/minibench/index.ts";
import fs from "node:fs";
import { type ChatRequestRecord, type OpenAIServer, type ScriptedReply, startOpenAIServer } from "./openai-server.ts";
import { agentsConfig, methodAgents } from "./method-agents.ts";

/** A CliIO that keeps what the command prints. */
export function captureIO(cwd: string, env: NodeJS.ProcessEnv = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const io: CliIO = { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env: { ...env }, cwd, isTTY: false };
  return { io, out: () => out.join(""), err: () => err.join("") };
}

/** Runs `sqlmend ARGS` in-process: its exit status and what it printed. */
/**
 * The launcher as a user starts it: `node ROOT/bin/sqlmend.js ARGS` in a child process (a module importing `sqlmend`
 * then resolves through the launcher's module hooks, which the test runner's own loader would bypass).
 */
export function launchCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, root = path.resolve(import.meta.dirname, "..", "..")): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [path.join(root, "bin", "sqlmend.js"), ...args], { cwd, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, out, err })));
}

export async function runCli(args: string[], cwd: string, env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string; err: string }> {
  const run = captureIO(cwd, env);
  const code = await main(args, run.io);
  return { code, out: run.out(), err: run.err() };
}

/** minibench built under `dir`, with its dev questions. */
export async function minibenchFixture(dir: string): Promise<{ benchDir: string; dev: Question[] }> {
  const benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  return { benchDir, dev: (await loadBenchmark(benchDir, { split: "dev" })).questions };
}

/**
 * minibench under `dir` and the scripted method agents behind a local server, `dir/sqlmend.config.json` pointing every
 * role at them: what an end-to-end test of a recipe or a method starts from.
 */
export async function agentsFixture(dir: string): Promise<{ benchDir: string; dev: Question[]; train: Question[]; server: OpenAIServer }> {
  const { benchDir, dev } = await minibenchFixture(dir);
  const train = (await loadBenchmark(benchDir, { split: "train" })).questions;
  const server = await startOpenAIServer({ respond: methodAgents({ questions: [dev, train] }).respond });
  fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
  return { benchDir, dev, train, server };
}

/**
 * minibench under `dir` and a local server answering each question with its gold SQL (`wrong(q)` ones with SELECT 42):
 * what an end-to-end test of the baseline, or of a user's module over it, starts from.
 */
export async function goldServerFixture(dir: string, wrong?: (q: Question) => boolean): Promise<{ benchDir: string; dev: Question[]; server: OpenAIServer }> {
  const { benchDir, dev } = await minibenchFixture(dir);
  return { benchDir, dev, server: await startOpenAIServer({ respond: goldResponder(dev, wrong) }) };
}

/** The question a baseline prompt asks ("Question: …" in its last message). */
export const questionOf = (req: ChatRequestRecord) => /Question: (.*)/.exec(req.messages.at(-1)?.content ?? "")?.[1]?.trim() ?? "";

/** A model that answers each question with its gold SQL ("SELECT 1" when it finds none), `wrong(q)` ones with SELECT 42. */
export function goldResponder(questions: Question[], wrong: (q: Question) => boolean = () => false) {
  return (req: ChatRequestRecord): ScriptedReply => {
    const text = questionOf(req);
    const q = questions.find((x) => x.question === text);
    const sql = !q ? "SELECT 1" : wrong(q) ? "SELECT 42" : q.goldSql!;
    return { content: `\`\`\`sql\n${sql}\n\`\`\``, usage: { prompt_tokens: 100, completion_tokens: 10 } };
  };
}

/** results.jsonl of an output folder, by question id. */
export async function resultsOf(out: string): Promise<Map<string, Record<string, unknown>>> {
  const fs = await import("node:fs");
  return new Map(fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l) as Record<string, unknown>).map((r) => [r.id as string, r]));
}
