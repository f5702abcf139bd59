/**
 * One output folder, one run (issue 19, point 4): `prepareOutDir` locks the folder. A second `eval --out DIR` while
 * another process writes DIR refuses with one line naming that process; the lock of a killed process is taken over;
 * the lock is released when the run ends. The other process is a real child process.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { LOCK_FILE, lockOutDir } from "../runner/run/out-dir-lock.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
let dir: string;
let benchDir: string;
let server: OpenAIServer;

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  server = await startOpenAIServer({ respond: () => ({ content: "```sql\nSELECT 1\n```" }) });
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

async function sqlmend(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const env = { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") };
  const code = await main(args, { stdout: (t) => void out.push(t), stderr: (t) => void err.push(t), env, cwd: dir, isTTY: false });
  return { code, out: out.join(""), err: err.join("") };
}

const evalArgs = (out: string, ...extra: string[]) => [
  "eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "2", "--checkpoints", "memory", "--model", "test-model", "--base-url", server.url, ...extra,
];

/** A child process that takes the folder's lock through `lockOutDir` and holds it until killed. */
async function holder(outDir: string): Promise<ChildProcess> {
  const script = `import { lockOutDir } from ${JSON.stringify(path.join(ROOT, "runner/run/out-dir-lock.ts"))};
lockOutDir(${JSON.stringify(outDir)}, "eval");
process.stdout.write("locked\\n");
setInterval(() => {}, 1000);`;
  const child = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { cwd: ROOT, stdio: ["ignore", "pipe", "inherit"] });
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => d.toString().includes("locked") && resolve());
    child.on("exit", (code) => reject(new Error(`the lock holder exited with ${code}`)));
  });
  return child;
}

const killed = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));

describe("one output folder, one run", () => {
  it("refuses a second eval on a folder another process writes, naming it; takes over the lock of a killed process", async () => {
    const out = path.join(dir, "shared-out");
    fs.mkdirSync(out, { recursive: true });
    const child = await holder(out);
    try {
      for (const extra of [[], ["--resume"]]) {
        const second = await sqlmend(...evalArgs(out, ...extra));
        expect(second.code).toBe(1);
        expect(second.err.trim()).toBe(
          `sqlmend eval: ${out} is being written by process ${child.pid} on ${os.hostname()} (sqlmend eval, since ${JSON.parse(fs.readFileSync(path.join(out, LOCK_FILE), "utf8")).startedAt}): wait for it or stop it, or choose another --out`,
        );
        expect(server.requests).toHaveLength(0);
        expect(fs.existsSync(path.join(out, "results.jsonl"))).toBe(false);
      }
    } finally {
      child.kill("SIGKILL");
      await killed(child);
    }
    // The holder was killed: its lock stays behind, and the next run takes it over, saying so.
    expect(JSON.parse(fs.readFileSync(path.join(out, LOCK_FILE), "utf8")).pid).toBe(child.pid);
    const run = await sqlmend(...evalArgs(out));
    expect(run.code, run.err).toBe(0);
    expect(run.err).toContain(`sqlmend eval: ${out}: took over the lock of process ${child.pid} (sqlmend eval, since `);
    // Released when the run ends: a resumed run in the same process gets it again.
    expect(fs.existsSync(path.join(out, LOCK_FILE))).toBe(false);
    expect((await sqlmend(...evalArgs(out, "--resume"))).code).toBe(0);
  }, 60_000);

  it("a lock held in this process is refused too, and released by release()", () => {
    const out = path.join(dir, "in-process");
    fs.mkdirSync(out);
    const lock = lockOutDir(out, "eval");
    expect(() => lockOutDir(out, "magic guideline")).toThrow(new RegExp(`is being written by process ${process.pid} on `));
    lock.release();
    lockOutDir(out, "eval").release();
    expect(fs.existsSync(path.join(out, LOCK_FILE))).toBe(false);
  });
});
