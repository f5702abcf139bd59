/**
 * Importing the library leaves its host process as it was (issue 27, point 3): Node's default listener limit is not
 * raised at import (it was set to 100), and a graph's widest fan-out (self-consistency's 20 samples) still runs without
 * a MaxListenersExceededWarning, since every graph binds how many tasks of a step run at once.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

const SCRIPT = `
import events from "node:events";
const before = events.defaultMaxListeners;
const lib = await import(${JSON.stringify(path.join(ROOT, "index.ts"))});
const { scriptedProvider } = await import(${JSON.stringify(path.join(ROOT, "test/support/scripted-models.ts"))});
const { makeTempDir, makeDb, removeTempDir } = await import(${JSON.stringify(path.join(ROOT, "test/support/fixtures.ts"))});
const dir = makeTempDir();
const dbPath = makeDb(dir, "t.sqlite", "CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1);");
const executor = lib.createExecutor({ size: 1 });
const models = scriptedProvider({ sampler: async () => { await new Promise((r) => setTimeout(r, 5)); return "\`\`\`sql\\nSELECT a FROM t\\n\`\`\`"; } });
const graph = lib.selfConsistencySpec.build({ models, executor }, { samples: 20 });
const state = await graph.invoke({ question: "a?", dbPath, sql: "SELECT a FROM t" });
await executor.close();
removeTempDir(dir);
console.log(JSON.stringify({ before, after: events.defaultMaxListeners, votes: state.sampleVote.votes }));
`;

describe("the library and its host process", () => {
  it("import changes no process-wide setting, and a 20-way fan-out prints no listener-leak warning", async () => {
    const tsx = path.join(ROOT, "node_modules", "tsx", "dist", "cli.mjs");
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [tsx, "--input-type=module", "-e", SCRIPT], { cwd: ROOT, timeout: 60_000 });
    expect(JSON.parse(stdout.trim().split("\n").at(-1)!)).toEqual({ before: 10, after: 10, votes: 20 });
    expect(stderr).not.toMatch(/MaxListenersExceededWarning/);
  }, 60_000);
});
