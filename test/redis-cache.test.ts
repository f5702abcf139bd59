/**
 * `--cache redis://…`: the response cache in a real Redis (Debian's redis-server, started by the test on 127.0.0.1),
 * shared by runs with different local homes — as machines of a cluster — through the Redis store (tools/models/redis-store.ts).
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import type { Question } from "../state/question.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";
import { captureIO as capture, goldResponder, minibenchFixture } from "./support/cli.ts";
import { type RedisServer, startRedis } from "./support/redis.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const started = await startRedis();
const skip = "skip" in started ? started.skip : undefined;
if (skip) console.warn(`redis-cache: skipped: ${skip}`);
const redis = started as RedisServer;

let dir: string;
let benchDir: string;
let dev: Question[];
let models: OpenAIServer;
const captureIO = (env: NodeJS.ProcessEnv) => capture(dir, env);
const verdicts = (out: string) => fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n").map((l) => JSON.parse(l)).map((r) => `${r.id}:${r.correct}:${r.sql}`).sort();

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, dev } = await minibenchFixture(dir));
  models = await startOpenAIServer({ respond: goldResponder(dev) });
});
afterAll(async () => {
  await models?.close();
  if (!skip) await redis.stop();
  removeTempDir(dir);
});

describe.skipIf(!!skip)("the response cache in Redis", () => {
  it("a second machine (another home) is answered from the first one's replies; verdicts the same", async () => {
    const common = ["eval", "baseline", "--bench", benchDir, "--limit", "6", "--checkpoints", "memory", "--max-fix-rounds", "0", "--cache", redis.url];
    const first = path.join(dir, "machine-1");
    const a = captureIO({ OPENAI_BASE_URL: models.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-1") });
    expect(await main([...common, "--out", first], a.io)).toBe(0);
    const asked = models.requests.length;
    expect(asked).toBe(6);
    const second = path.join(dir, "machine-2");
    const b = captureIO({ OPENAI_BASE_URL: models.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-2") });
    expect(await main([...common, "--out", second], b.io)).toBe(0);
    expect(models.requests.length).toBe(asked);
    expect(verdicts(second)).toEqual(verdicts(first));
    expect(b.out()).toMatch(/Response cache: 6 of 6 model calls served \(100\.00%\)/);
    // Nothing was written to the second home's cache file: the replies came from Redis.
    expect(fs.existsSync(path.join(dir, "home-2", "responses.sqlite"))).toBe(false);
  }, 60_000);

  it("the launcher exits when the command ends (the Redis connection is closed)", async () => {
    const out = path.join(dir, "child");
    const child = spawn(process.execPath, ["bin/sqlmend.js", "eval", "baseline", "--bench", benchDir, "--limit", "2", "--checkpoints", "memory", "--out", out, "--cache", redis.url], {
      cwd: ROOT,
      env: { ...process.env, OPENAI_BASE_URL: models.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-child") },
      stdio: "ignore",
    });
    const code = await new Promise<number | null>((resolve) => {
      const timer = setTimeout(() => {
        child.kill("SIGKILL");
        resolve(null);
      }, 30_000);
      child.on("exit", (c) => {
        clearTimeout(timer);
        resolve(c);
      });
    });
    expect(code).toBe(0);
  }, 60_000);

  it("a Redis that cannot be reached turns the cache off with a warning; the run goes on", async () => {
    const run = captureIO({ OPENAI_BASE_URL: models.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-3") });
    expect(await main(["eval", "baseline", "--bench", benchDir, "--limit", "2", "--checkpoints", "memory", "--out", path.join(dir, "no-redis"), "--cache", "redis://127.0.0.1:9"], run.io)).toBe(0);
    expect(run.out()).toMatch(/^EX 100\.00% \(2\/2/);
    expect(run.err() + run.out()).toMatch(/response cache redis:\/\/127\.0\.0\.1:9.* failed .*running without it/);
    // The fallback is in the report, not only on stderr.
    expect(fs.readFileSync(path.join(dir, "no-redis", "report.md"), "utf8")).toMatch(/Fallbacks during the run: 1\n {2}- response cache redis:\/\/127\.0\.0\.1:9.* failed/);
    const bad = captureIO({});
    expect(await main(["eval", "baseline", "--bench", benchDir, "--out", path.join(dir, "bad"), "--cache", "redis://[nope"], bad.io)).toBe(2);
    expect(bad.err()).toMatch(/is not a Redis URL/);
  }, 60_000);
});

describe.skipIf(!!skip)("Redis keys", () => {
  it("every key a run writes lives under the documented sqlmend: prefix (redis-cli --scan --pattern 'sqlmend:*' finds them all)", async () => {
    const { Redis } = await import("ioredis");
    const client = new Redis(redis.url);
    try {
      await client.flushdb();
      const run = captureIO({ OPENAI_BASE_URL: models.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home-keys") });
      expect(await main(["eval", "baseline", "--bench", benchDir, "--limit", "3", "--checkpoints", "memory", "--out", path.join(dir, "keys"), "--cache", redis.url], run.io)).toBe(0);
      const keys = await client.keys("*");
      expect(keys.filter((k) => k.startsWith("sqlmend:reply:"))).toHaveLength(3);
      expect(keys.filter((k) => !k.startsWith("sqlmend:"))).toEqual([]);
    } finally {
      client.disconnect();
    }
  }, 60_000);
});
