/**
 * The run API of Memo-SQL's memory build and TS-SQL's gold audit, called as a script calls them (from the package's
 * entry, options by name) on minibench against the scripted local server (every agent role: support/method-agents.ts):
 * each writes what its command writes and returns the figures that file holds and its summary prints.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditGold, buildMemory, MemoryStore, type AuditRecord, UsageError } from "../index.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer } from "./support/openai-server.ts";
import { agentsConfig, type MethodAgents, methodAgents } from "./support/method-agents.ts";
import { captureIO } from "./support/cli.ts";

let dir: string;
let benchDir: string;
let server: OpenAIServer;
let agents: MethodAgents;

// No response cache: the figures count what reaches the server.
const io = () => captureIO(dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" });
const chatRequests = () => [...agents.calls.values()].reduce((a, b) => a + b, 0);

beforeAll(async () => {
  dir = makeTempDir();
  benchDir = path.join(dir, "minibench");
  await buildMinibench(benchDir);
  const dev = (await loadBenchmark(benchDir, { split: "dev" })).questions;
  const train = (await loadBenchmark(benchDir, { split: "train" })).questions;
  agents = methodAgents({ questions: [dev, train] });
  server = await startOpenAIServer({ respond: agents.respond });
  fs.writeFileSync(path.join(dir, "sqlmend.config.json"), JSON.stringify(agentsConfig({ baseURL: server.url })));
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

describe("buildMemory", () => {
  it("builds the memory file memo build builds and returns the figures it holds; resumes by name", async () => {
    const run = io();
    const before = chatRequests();
    const built = await buildMemory({ bench: benchDir, out: "memory.sqlite", limit: 4, concurrency: 2 }, run.io);
    expect(built.exitCode, run.err()).toBe(0);
    expect(built.file).toBe(path.join(dir, "memory.sqlite"));
    expect(built).toMatchObject({ questions: 4, done: 4, ranNow: 4, failed: 0, notRun: 0, ranking: "embeddings" });
    // The sampler's "subqueries" angle goes wrong (an empty result): every question leaves an entry.
    expect(built.entries).toBeGreaterThan(0);
    expect(built.added).toBe(built.entries);
    expect(built.calls).toBe(chatRequests() - before);
    expect(built.inputTokens).toBeGreaterThan(0);

    const store = MemoryStore.open(built.file);
    try {
      const stats = store.stats();
      expect(built.entries).toBe(stats.entries);
      expect(built.outcomes).toEqual(stats.done);
      expect(built.errorTypes).toEqual(stats.histogram);
      expect(built.errorTypes.select_output_error).toBe(built.entries);
      expect(built.sha256).toBe(store.getMeta("sha256"));
    } finally {
      store.close();
    }
    // The summary it prints says the same.
    expect(run.out()).toContain(`Entries: ${built.entries} (+${built.added} this run)`);
    expect(run.out()).toContain(`sha256 ${built.sha256.slice(0, 16)}`);
    expect(run.out()).toMatch(/^Questions: 4 selected, 4 done \(4 this run\)$/m);

    // A larger selection with resume: only the new questions run, and the figures add up.
    const more = await buildMemory({ bench: benchDir, out: "memory.sqlite", limit: 6, resume: true }, io().io);
    expect(more).toMatchObject({ exitCode: 0, questions: 6, done: 6, ranNow: 2, failed: 0 });
    expect(more.entries).toBe(built.entries + more.added);
    expect(more.added).toBeGreaterThan(0);
  }, 60_000);

  it("refuses an option memo build does not take, naming it, before any model call", async () => {
    const before = chatRequests();
    // @ts-expect-error sampels is no option of memo build
    await expect(buildMemory({ bench: benchDir, out: "other.sqlite", sampels: 2 }, io().io)).rejects.toThrow(new UsageError("buildMemory: unknown option 'sampels'"));
    // Said in the API's words: the option's name, not the flag.
    await expect(buildMemory({ bench: benchDir, out: "other.sqlite", elicit: "guess" as "sampling" }, io().io)).rejects.toThrow(/^buildMemory: elicit takes sampling, pipeline, not 'guess'/);
    expect(chatRequests()).toBe(before);
    expect(fs.existsSync(path.join(dir, "other.sqlite"))).toBe(false);
  });
});

describe("auditGold", () => {
  it("writes the folder ts-sql audit writes and returns the counts its report and audit.jsonl hold", async () => {
    const run = io();
    const before = chatRequests();
    const embeddingsBefore = server.embeddingRequests.length;
    const audited = await auditGold({ bench: benchDir, out: "audit", limit: 4, checkpoints: "audit.ckpt", options: { maxDataRounds: 2 } }, run.io);
    expect(audited.exitCode, run.err()).toBe(0);
    expect(audited.outDir).toBe(path.join(dir, "audit"));
    const records = fs.readFileSync(audited.files.results, "utf8").trim().split("\n").map((l) => JSON.parse(l) as AuditRecord);
    const count = (status: AuditRecord["status"]) => records.filter((r) => r.status === status).length;
    expect(records).toHaveLength(4);
    expect(audited).toMatchObject({ audited: 4, goldPassing: count("passed"), goldFailing: count("failed"), untested: count("untested"), failed: count("error"), notRun: 0 });
    expect(audited.goldPassing + audited.goldFailing + audited.untested + audited.failed).toBe(4);
    // The scripted coder computes each gold query's own result: the gold passes its test case.
    expect(audited.goldPassing).toBeGreaterThan(0);
    // Model calls: the agents' and the linker's embedding requests (value and column ranking).
    expect(audited.calls).toBe(chatRequests() - before + server.embeddingRequests.length - embeddingsBefore);
    expect(audited.inputTokens).toBe(records.reduce((a, r) => a + r.inputTokens, 0));

    const report = fs.readFileSync(audited.files.report, "utf8");
    expect(report).toContain(`| ${audited.audited} | ${audited.goldPassing} | ${audited.goldFailing} | ${audited.untested} | ${audited.failed} |`);
    // The command line that does the same, as the launcher records its own.
    expect(report).toMatch(/command: `sqlmend ts-sql audit --bench \S+minibench --limit 4 --out audit --checkpoints audit\.ckpt --max-data-rounds 2`/);
    expect(JSON.parse(fs.readFileSync(audited.files.run, "utf8"))).toMatchObject({ command: "ts-sql audit", split: "dev" });
    expect(run.out()).toContain(`${audited.goldFailing} of ${audited.audited} gold queries fail their own test case`);
  }, 60_000);

  it("refuses what the audit does not use, as the command does", async () => {
    // @ts-expect-error the audit fixes TS-SQL's revisions: no such option of it
    await expect(auditGold({ bench: benchDir, out: "audit2", maxRevisions: 2 }, io().io)).rejects.toThrow(/maxRevisions does not apply/);
    // @ts-expect-error generate is no option of the audit
    await expect(auditGold({ bench: benchDir, out: "audit2", generate: "x" }, io().io)).rejects.toThrow(/auditGold: unknown option 'generate'/);
    expect(fs.existsSync(path.join(dir, "audit2"))).toBe(false);
  });
});
