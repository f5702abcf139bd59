/**
 * TS-SQL's costs.
 *  1. The sandbox: run time per test code (median, p90) over realistic snippets and test tables, the first run (the
 *     WebAssembly module loads once), and the process's peak memory.
 *  2. Calls and tokens per question by role: the ts-sql graph through the real ChatOpenAI client against the local
 *     OpenAI-compatible test server on Spider dev questions (the server counts tokens from the prompt and reply
 *     sizes; the agents' replies are scripted, see `respond`). The paper reports 2,369 tokens per query (Table 6).
 * Run: npx tsx bench/sandbox.ts [--runs N] [--spider DIR] [--questions N]
 */
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { tsSqlSpec } from "../graphs/ts-sql.ts";
import { loadBenchmark } from "../tools/benchmarks/benchmark.ts";
import { createOpenAIProvider } from "../tools/models/models.ts";
import { runSandboxed, type TestTables } from "../tools/sandbox/sandbox.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import type { Question } from "../state/question.ts";
import type { Usage } from "../state/usage.ts";
import { type ChatRequestRecord, type ScriptedReply, startOpenAIServer, TEST_MODEL_ID } from "../test/support/openai-server.ts";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "300" }, spider: { type: "string" }, questions: { type: "string", default: "20" } },
});
const runs = Number(values.runs);
const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MiB`;
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

// ---------------------------------------------------------------------------------------------------------------
// 1. Sandbox

const schools = Array.from({ length: 40 }, (_, i) => ({
  id: i + 1,
  district_id: (i % 5) + 1,
  name: `School ${i + 1}`,
  status: i % 3 ? "Active" : "Closed",
  score: 400 + ((i * 37) % 300) + 0.5,
  opened: `19${60 + (i % 40)}-0${(i % 9) + 1}-15`,
}));
const districts = Array.from({ length: 5 }, (_, i) => ({ id: i + 1, name: `District ${i + 1}`, county: i % 2 ? "North" : "South" }));
const tables: TestTables = { school: schools, district: districts };
const SNIPPETS: Record<string, string> = {
  "filter+sort+top": `// active schools, best score first
const active = tables.school.filter((s) => s.status === "Active");
// keep the top one
result = active.sort((a, b) => b.score - a.score).slice(0, 1).map((s) => ({ name: s.name }));`,
  "join+group+avg": `// index districts by id for the join
const byId = new Map(tables.district.map((d) => [d.id, d]));
// average score per county over active schools
const sums = new Map();
for (const s of tables.school) {
  if (s.status !== "Active") continue;
  const county = byId.get(s.district_id).county;
  const e = sums.get(county) ?? { total: 0, n: 0 };
  e.total += s.score; e.n += 1; sums.set(county, e);
}
result = [...sums].map(([county, e]) => ({ county, avg: e.total / e.n }));`,
  "dates+distinct+count": `// schools opened in the 1970s, distinct districts
const ids = new Set(tables.school.filter((s) => s.opened >= "1970-01-01" && s.opened < "1980-01-01").map((s) => s.district_id));
// how many districts
result = ids.size;`,
  "ratio+percent": `// share of closed schools, in percent
const closed = tables.school.filter((s) => s.status === "Closed").length;
result = [{ percent: (closed * 100) / tables.school.length }];`,
};

let peakRss = process.memoryUsage().rss;
const rssBefore = peakRss;
let t = performance.now();
const first = await runSandboxed(SNIPPETS["filter+sort+top"]!, tables);
const firstMs = performance.now() - t;
if (!first.ok) throw new Error(first.message);
console.log(`sandbox: QuickJS (quickjs-emscripten) in WebAssembly, fresh runtime per run; ${schools.length + districts.length} test rows`);
console.log(`  first run (loads the WebAssembly module): ${firstMs.toFixed(1)} ms`);
const all: number[] = [];
for (const [name, code] of Object.entries(SNIPPETS)) {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    t = performance.now();
    const out = await runSandboxed(code, tables);
    times.push(performance.now() - t);
    if (!out.ok) throw new Error(`${name}: ${out.message}`);
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }
  times.sort((a, b) => a - b);
  all.push(...times);
  console.log(`  ${name.padEnd(22)} median ${quantile(times, 0.5).toFixed(3)} ms  p90 ${quantile(times, 0.9).toFixed(3)} ms  (${runs} runs)`);
}
all.sort((a, b) => a - b);
console.log(`  all snippets             median ${quantile(all, 0.5).toFixed(3)} ms  p90 ${quantile(all, 0.9).toFixed(3)} ms`);
t = performance.now();
const loop = await runSandboxed("while (true) {}", tables, { timeoutMs: 100 });
console.log(`  infinite loop stopped:   ${(performance.now() - t).toFixed(0)} ms (limit 100 ms, ${loop.ok ? "not stopped!" : loop.kind})`);
const rssSnippets = process.memoryUsage().rss;
t = performance.now();
// The sandbox runs in a worker thread, so this thread can sample the process's memory while the bomb grows.
const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 5);
const bomb = await runSandboxed("const a = []; for (;;) a.push({ k: a.length, s: 'row' + a.length });", tables, { timeoutMs: 10_000 });
clearInterval(sampler);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
console.log(`  memory bomb stopped:     ${(performance.now() - t).toFixed(0)} ms (limit 16 MiB, ${bomb.ok ? "not stopped!" : bomb.kind})`);
const hang = await runSandboxed("result = Array.prototype.indexOf.call({ length: 2 ** 52 }, 1);", tables, { timeoutMs: 100 });
console.log(`  C-level hang stopped:    ${(performance.now() - t).toFixed(0)} ms after the bomb started (limit 100 ms + host grace, ${hang.ok ? "not stopped!" : hang.kind})`);
await runSandboxed("result = 1;", tables);
(globalThis as { gc?: () => void }).gc?.();
console.log(
  `  process rss: before ${mib(rssBefore)}; after ${all.length} snippet runs ${mib(rssSnippets)} (+${mib(rssSnippets - rssBefore)}); ` +
    `peak with the memory bomb ${mib(peakRss)} (+${mib(peakRss - rssBefore)}); after it and one more run ${mib(process.memoryUsage().rss)}`,
);

// ---------------------------------------------------------------------------------------------------------------
// 2. Calls and tokens per question by role

if (!values.spider) {
  console.log("\ntokens per question: pass --spider DIR (a Spider checkout) to measure them");
  process.exit(0);
}
const bench = await loadBenchmark(path.resolve(values.spider), { split: "dev" });
const questions = bench.questions.filter((q) => q.goldSql).slice(0, Number(values.questions));
const executor = createExecutor({ size: 2 });

let current: { q: Question; index: number; data?: Record<string, Record<string, unknown>[]>; dataTurn: number };
const text = (req: ChatRequestRecord) => req.messages.map((m) => m.content).join("\n");
const say = (content: string): ScriptedReply => ({ content }); // no usage: the server counts ~4 characters a token

/**
 * The agents, scripted: the linker names the question's longer words; the generator writes the gold SQL for even
 * questions and a wrong one for odd ones (so half the questions take a revision); the data agent copies a few real
 * rows per table (more on each retry); the coder returns the gold's result on that data as a commented literal; the
 * reviser writes the gold SQL. The numbers of calls follow from the graph; the tokens from the real prompt sizes.
 */
async function respond(req: ChatRequestRecord): Promise<ScriptedReply> {
  const all = text(req);
  const { q } = current;
  if (/pick out what a database question refers to/.test(all)) {
    return say(JSON.stringify({ keywords: q.question.split(/\W+/).filter((w) => w.length > 3).slice(0, 6) }));
  }
  if (/software tester/.test(all)) {
    current.dataTurn++;
    const names = [...all.matchAll(/CREATE TABLE\s+(?:IF NOT EXISTS\s+)?["`[]?([A-Za-z0-9_]+)/gi)].map((m) => m[1]!);
    const db = new Database(q.dbPath, { readonly: true });
    const data: Record<string, Record<string, unknown>[]> = {};
    for (const name of new Set(names)) {
      try {
        data[name] = db.prepare(`SELECT * FROM "${name}" LIMIT ${4 * current.dataTurn}`).all() as Record<string, unknown>[];
      } catch {
        // a table the prompt named that the file lacks: skip it
      }
    }
    db.close();
    current.data = data;
    return say(`The rows below cover the question's conditions.\n\`\`\`json\n${JSON.stringify({ tables: data })}\n\`\`\``);
  }
  if (/data scientist/.test(all)) {
    const out = await executor.runScratch(q.dbPath, (current.data ?? {}) as never, [q.goldSql!]);
    const r = out.ok ? out.results[0] : undefined;
    const rows = r?.ok ? r.rows.map((row) => Object.fromEntries(r.columns.map((c, i) => [c, typeof row[i] === "bigint" ? Number(row[i]) : row[i]]))) : [];
    return say(`We filter, join and aggregate as the question asks.\n\`\`\`javascript\n// the rows the question asks for, computed step by step\nconst answer = ${JSON.stringify(rows)};\n// keep them as the result\nresult = answer;\n\`\`\``);
  }
  if (/test case checks a query/.test(all)) return say(`The SQL misses a condition of the question.\n\`\`\`sql\n${q.goldSql}\n\`\`\``);
  return say(`\`\`\`sql\n${current.index % 2 === 0 ? q.goldSql : "SELECT 1"}\n\`\`\``);
}

const server = await startOpenAIServer({ respond });
const models = createOpenAIProvider({ model: TEST_MODEL_ID, baseURL: server.url, roles: {} }, { OPENAI_API_KEY: "k" });
const graph = tsSqlSpec.build({ models, executor }, {});
const byRole = new Map<string, { calls: number; tokens: number }>();
let totalTokens = 0;
let totalCalls = 0;
let tested = 0;
for (const [index, q] of questions.entries()) {
  current = { q, index, dataTurn: 0 };
  const state = (await graph.invoke({ question: q.question, evidence: q.evidence, dbPath: q.dbPath, dbId: q.dbId }, { recursionLimit: 200 })) as {
    usage: Usage;
    testCode: unknown;
  };
  if (state.testCode) tested++;
  totalTokens += state.usage.inputTokens + state.usage.outputTokens;
  totalCalls += state.usage.calls;
  for (const [role, u] of Object.entries(state.usage.byRole)) {
    const e = byRole.get(role) ?? { calls: 0, tokens: 0 };
    e.calls += u.calls;
    e.tokens += u.inputTokens + u.outputTokens;
    byRole.set(role, e);
  }
}
const n = questions.length;
console.log(`\ncalls and tokens per question: ts-sql on the first ${n} Spider dev questions (${tested} got a test case), local server, ~4 chars/token`);
console.log(`  ${"role".padEnd(10)} ${"calls/q".padStart(8)} ${"tokens/q".padStart(9)}`);
for (const [role, e] of [...byRole].sort((a, b) => b[1].tokens - a[1].tokens)) {
  console.log(`  ${role.padEnd(10)} ${(e.calls / n).toFixed(2).padStart(8)} ${(e.tokens / n).toFixed(0).padStart(9)}`);
}
console.log(`  ${"total".padEnd(10)} ${(totalCalls / n).toFixed(2).padStart(8)} ${(totalTokens / n).toFixed(0).padStart(9)}   (paper, Table 6: 2,369 tokens per query on BIRD)`);
await server.close();
await executor.close();
