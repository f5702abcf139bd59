/**
 * SIGTERM and SIGHUP stop a run as Ctrl-C does (issue 30, point 5): a batch scheduler's stop or a closed terminal
 * lets the questions in flight finish, writes the outputs, releases run.lock and exits with 128 + the signal's number,
 * and `--resume` then finishes the run. The launcher runs as a real process against the local scripted server.
 */
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Question } from "../state/question.ts";
import { goldResponder, minibenchFixture, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
let dir: string;
let benchDir: string;
let dev: Question[];

beforeAll(async () => {
  dir = makeTempDir("sqlmend-signals-");
  ({ benchDir, dev } = await minibenchFixture(dir));
});
afterAll(() => removeTempDir(dir));

async function stopWith(signal: "SIGTERM" | "SIGHUP", status: number) {
  const server = await startOpenAIServer({ respond: goldResponder(dev), latencyMs: 150 });
  const out = path.join(dir, `eval-${signal}`);
  const home = path.join(dir, `home-${signal}`);
  const args = ["eval", "baseline", "--bench", benchDir, "--out", out, "--concurrency", "2", "--checkpoints", path.join(dir, `${signal}.sqlite`)];
  const env = { ...process.env, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: home };
  try {
    const child = spawn(process.execPath, ["bin/sqlmend.js", ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d) => (stdout += d));
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, sig) => resolve({ code, signal: sig })));
    const results = path.join(out, "results.jsonl");
    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !(fs.existsSync(results) && fs.readFileSync(results, "utf8").split("\n").filter(Boolean).length >= 2)) {
      await new Promise((r) => setTimeout(r, 20));
    }
    child.kill(signal);
    const { code, signal: killedBy } = await exited;
    expect(killedBy, stderr).toBeNull();
    expect(code, stderr).toBe(status);
    expect(stderr).toContain(`stopping after the work in flight (${signal} received`);
    // Outputs written for what finished, the lock released, the rest left for --resume.
    const lines = fs.readFileSync(results, "utf8").trim().split("\n");
    expect(lines.length).toBeLessThan(dev.length);
    expect(stdout).toMatch(/Stopped early: \d+ questions not run; --resume finishes the run/);
    expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toContain(`(${lines.length}/${lines.length})`);
    expect(fs.existsSync(path.join(out, "run.lock"))).toBe(false);

    const resumed = await runCli([...args, "--resume"], ROOT, { OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: home });
    expect(resumed.code, resumed.err).toBe(0);
    expect(resumed.err).toContain(`${dev.length} questions (${lines.length} already done`);
    expect(fs.readFileSync(results, "utf8").trim().split("\n")).toHaveLength(dev.length);
  } finally {
    await server.close();
  }
}

describe("stop signals", () => {
  it("a signal while a run holds its folder outside the question loop (set-up, writing outputs) exits with its status and releases run.lock", async () => {
    const out = path.join(dir, "held");
    fs.mkdirSync(out);
    const script = `import { lockOutDir } from ${JSON.stringify(path.join(ROOT, "runner/run/out-dir-lock.ts"))};
lockOutDir(${JSON.stringify(out)}, "eval");
process.stdout.write("locked\\n");
setInterval(() => {}, 1000);`;
    const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once("exit", (code, sig) => resolve({ code, signal: sig })));
    await new Promise<void>((resolve) => child.stdout.on("data", (d: Buffer) => d.toString().includes("locked") && resolve()));
    expect(fs.existsSync(path.join(out, "run.lock"))).toBe(true);
    child.kill("SIGTERM");
    expect(await exited).toEqual({ code: 143, signal: null });
    expect(fs.existsSync(path.join(out, "run.lock"))).toBe(false);
  }, 30_000);

  it("SIGTERM stops the launcher as Ctrl-C does: in-flight questions finish, outputs written, lock released, exit 143", () => stopWith("SIGTERM", 143), 90_000);
  it("SIGHUP does the same with exit 129", () => stopWith("SIGHUP", 129), 90_000);
});
