/**
 * sqlmend's own overhead beside LangGraph's floor, in one run, with file checkpoints on (issue 32, target 4).
 *
 * - sqlmend: `runEval` of the baseline graph (the eval path as `sqlmend eval` runs it: the response cache, ChatOpenAI
 *   over HTTP, checked nodes, the chunked SQLite checkpointer on a file, scoring, results.jsonl, progress, report) over
 *   N Spider dev questions (or minibench's, repeated), against an instant model: a local OpenAI-compatible server on
 *   127.0.0.1 in a child process (its CPU is not this process's), answering each question with its gold SQL at once.
 * - the floor: a bare LangGraph StateGraph of the same shape (the baseline's state, nodes and edges; without --link
 *   and fix rounds a question goes START → schema → generate → execute → END) whose nodes return, with no work, the very updates sqlmend's nodes wrote for each question (read
 *   back from sqlmend's checkpoints): the same checkpoints, nothing of sqlmend's. Checkpointed by LangGraph's own
 *   SqliteSaver on a file (the floor the target compares with), by sqlmend's chunked saver on a file, and in memory.
 * - two parts of sqlmend's figure alone: a model call through ChatOpenAI, and scoring a question.
 * A step is a checkpoint written (LangGraph's superstep, the input's included), counted alike for both. CPU is this
 * process's (process.cpuUsage: SQL runs in worker processes, not counted); a warm-up run first, so module loading and
 * JIT stay out; each round runs both sides, and the medians of the rounds are printed (the machine is shared).
 *
 * Run: npx tsx bench/launcher-overhead.ts [--questions 400] [--warm 200] [--bench DIR|minibench (default: Spider
 *        dev when present; minibench's dev questions repeated under new ids as needed)] [--cache on|off] [--concurrency 4] [--rounds 3]
 *        [--profile FILE] [--profile-floor FILE] (V8 CPU profiles of the first round's eval run / chunked floor)
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const SPIDER = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../shared/benchmarks/spider");
const { values } = parseArgs({
  options: {
    questions: { type: "string", default: "400" },
    warm: { type: "string", default: "200" },
    bench: { type: "string" },
    cache: { type: "string", default: "on" },
    concurrency: { type: "string", default: "4" },
    rounds: { type: "string", default: "3" },
    serve: { type: "string" },
    profile: { type: "string" },
    "profile-floor": { type: "string" },
  },
});

if (values.serve) await serve(values.serve);
else await measure();

/** The child: an instant OpenAI-compatible server answering each baseline prompt with its question's gold SQL. */
async function serve(benchDir: string): Promise<void> {
  const { startOpenAIServer } = await import("../test/support/openai-server.ts");
  const { loadBenchmark } = await import("../tools/benchmarks/benchmark.ts");
  const { questions } = await loadBenchmark(benchDir, { split: "dev" });
  const byQuestion = new Map<string, typeof questions>();
  for (const q of questions) byQuestion.set(q.question, [...(byQuestion.get(q.question) ?? []), q]);
  // Questions repeat across databases in Spider: the one whose gold names only tables the prompt shows.
  const fits = (prompt: string, sql: string) => [...sql.matchAll(/\b(?:FROM|JOIN)\s+([A-Za-z_][A-Za-z0-9_]*)/gi)].every((m) => new RegExp(`CREATE TABLE [\`"\\[]?${m[1]}\\b`, "i").test(prompt));
  // The text of every prompt and reply, to weigh the checkpoint file against.
  let promptAndReplyChars = 0;
  const server = await startOpenAIServer({
    respond: (req) => {
      const prompt = req.messages.at(-1)!.content;
      const text = /Question: (.*)/.exec(prompt)?.[1]?.trim() ?? "";
      const candidates = byQuestion.get(text) ?? [];
      const q = candidates.find((c) => fits(prompt, c.goldSql ?? "")) ?? candidates[0];
      const content = `\`\`\`sql\n${q?.goldSql ?? "SELECT 1"}\n\`\`\``;
      promptAndReplyChars += req.messages.reduce((n, m) => n + m.content.length, 0) + content.length;
      return { content, usage: { prompt_tokens: Math.ceil(prompt.length / 4), completion_tokens: 20 } };
    },
  });
  process.send!({ url: server.url });
  process.on("message", () => process.send!({ chars: promptAndReplyChars }));
  process.on("disconnect", () => void server.close().then(() => process.exit(0)));
}

async function measure(): Promise<void> {
  const [{ runEval }, { openCheckpointer }, { baselineSpec }, { SqlInputState, SqlState }, { inputOf }, { loadBenchmark }, { buildMinibench }, { TEST_MODEL_ID }, { END, START, StateGraph, MemorySaver }, { SqliteSaver }, { LightSqliteSaver }] = await Promise.all([
    import("../runner/eval-run.ts"),
    import("../storage/checkpoints.ts"),
    import("../graphs/baseline.ts"),
    import("../state/sql-state.ts"),
    import("../runner/question.ts"),
    import("../tools/benchmarks/benchmark.ts"),
    import("../tools/benchmarks/minibench/index.ts"),
    import("../test/support/openai-server.ts"),
    import("@langchain/langgraph"),
    import("@langchain/langgraph-checkpoint-sqlite"),
    import("../storage/checkpoint-chunks.ts"),
  ]);
  const total = Number(values.questions);
  const warmCount = Number(values.warm);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-overhead-"));
  let benchDir = values.bench === "minibench" ? "" : values.bench ? path.resolve(values.bench) : fs.existsSync(path.join(SPIDER, "dev.json")) ? SPIDER : "";
  if (!benchDir) {
    // No Spider here: minibench's dev questions repeated under new ids up to N.
    benchDir = path.join(dir, "mb");
    await buildMinibench(benchDir);
    const devJson = JSON.parse(fs.readFileSync(path.join(benchDir, "dev.json"), "utf8")) as Record<string, unknown>[];
    const big = Array.from({ length: total + warmCount }, (_, i) => ({ ...devJson[i % devJson.length], question_id: i, question: `${devJson[i % devJson.length]!.question} (#${i})` }));
    fs.writeFileSync(path.join(benchDir, "dev.json"), JSON.stringify(big));
  }
  const bench = await loadBenchmark(benchDir, { split: "dev" });
  if (bench.questions.length < total + warmCount) throw new Error(`${benchDir} has ${bench.questions.length} dev questions with databases; asked for ${total} + ${warmCount} to warm up`);
  // The warm-up run's questions come after the measured ones, so neither run's response cache serves the other.
  const measuredIds = bench.questions.slice(0, total).map((q) => q.id);
  const warmIds = bench.questions.slice(total, total + warmCount).map((q) => q.id);

  const child: ChildProcess = fork(fileURLToPath(import.meta.url), ["--serve", benchDir], { stdio: ["ignore", "inherit", "inherit", "ipc"] });
  const url = await new Promise<string>((resolve, reject) => {
    child.once("message", (m) => resolve((m as { url: string }).url));
    child.once("exit", (code) => reject(new Error(`the model server exited (${code})`)));
  });
  const textSoFar = () => new Promise<number>((resolve) => {
    child.once("message", (m) => resolve((m as { chars: number }).chars));
    child.send("chars");
  });
  const io = { stdout: () => {}, stderr: () => {}, cwd: dir, isTTY: false };
  // Each run its own data directory: an empty response cache (every call reaches the model) and checkpoint file.
  const envOf = (home: string) => ({ ...process.env, OPENAI_BASE_URL: url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, home), LANGSMITH_TRACING: "", LANGCHAIN_TRACING_V2: "" });
  const evalOf = (ids: string[], out: string) =>
    runEval({ graph: "baseline", bench: benchDir, out: path.join(dir, out), ids, concurrency: Number(values.concurrency), cache: values.cache }, { ...io, env: envOf(`home-${out}`) });

  // The floor: the same shape and the same writes, nothing between LangGraph and its checkpointer.
  type Updates = Map<string, { schema: Record<string, unknown>; generate: Record<string, unknown>; execute: Record<string, unknown> }>;
  type Saver = "stock" | "chunked" | "memory";
  const byId = new Map(bench.questions.map((q) => [q.id, q]));
  const floorOnce = async (saver: Saver, updates: Updates, round: number) => {
    const file = path.join(dir, `floor-${saver}-${round}.sqlite`);
    const db = saver === "memory" ? undefined : (await import("../tools/sqlite/shared-file.ts")).openSharedSqlite(file, { busyMs: 10_000, synchronousNormal: true });
    const checkpointer = saver === "memory" ? new MemorySaver() : saver === "stock" ? new SqliteSaver(db!) : new LightSqliteSaver(db!);
    const current = { id: "" };
    // The baseline's wiring (graphs/baseline.ts): its five nodes, the branch at START and the route after execute.
    const floor = new StateGraph(SqlState, { input: SqlInputState })
      .addNode("link", async () => ({}))
      .addNode("schema", async () => updates.get(current.id)!.schema)
      .addNode("generate", async () => updates.get(current.id)!.generate)
      .addNode("execute", async () => updates.get(current.id)!.execute)
      .addNode("fix", async () => ({}))
      .addConditionalEdges(START, () => "schema", ["link", "schema"])
      .addEdge("link", "schema")
      .addEdge("schema", "generate")
      .addEdge("generate", "execute")
      .addConditionalEdges("execute", () => END, ["fix", END])
      .addEdge("fix", "execute")
      .compile({ checkpointer });
    // The first tenth warms up, not counted.
    const warmN = Math.ceil(measuredIds.length / 10);
    let c0 = process.cpuUsage();
    let w0 = performance.now();
    let profiler: (() => Promise<unknown>) | undefined;
    for (const [i, id] of measuredIds.entries()) {
      if (i === warmN) {
        if (values["profile-floor"] && saver === "chunked" && round === 0) profiler = await startProfile();
        c0 = process.cpuUsage();
        w0 = performance.now();
      }
      current.id = id;
      await floor.invoke(inputOf(byId.get(id)!, "baseline"), { configurable: { thread_id: `floor:${id}` } });
    }
    const c = process.cpuUsage(c0);
    if (profiler) fs.writeFileSync(values["profile-floor"]!, JSON.stringify(await profiler()));
    const steps = db ? (db.prepare("SELECT count(*) FROM checkpoints WHERE checkpoint_ns = ''").pluck().get() as number) : undefined;
    db?.close();
    const measured = measuredIds.length - warmN;
    return { cpu: (c.user + c.system) / 1000 / measured, wall: (performance.now() - w0) / measured, steps: steps === undefined ? undefined : steps / measuredIds.length };
  };

  type Figures = { cpu: number; wall: number; steps: number };
  const rounds: { sqlmend: Figures; stock: Figures; chunked: Figures; memory: Figures; ex: number | null; calls: number; bytes: number; chars: number }[] = [];
  let lastUpdates: Updates = new Map();
  const warm = await evalOf(warmIds, "warm");
  if (warm.exitCode !== 0) throw new Error(`the warm-up eval exited ${warm.exitCode}`);
  for (let round = 0; round < Number(values.rounds); round++) {
    // sqlmend: the eval run, as a user starts it.
    const charsBefore = await textSoFar();
    const profiler = values.profile && round === 0 ? await startProfile() : undefined;
    const cpu0 = process.cpuUsage();
    const wall0 = performance.now();
    const out = `run-${round}`;
    const result = await evalOf(measuredIds, out);
    const cpu = process.cpuUsage(cpu0);
    const wall = performance.now() - wall0;
    if (profiler) fs.writeFileSync(values.profile!, JSON.stringify(await profiler()));
    if (result.exitCode !== 0) throw new Error(`eval exited ${result.exitCode}`);
    const chars = (await textSoFar()) - charsBefore;

    // What sqlmend's nodes wrote for each question, and the checkpoints of each thread, from its checkpoint file.
    const store = openCheckpointer(undefined, envOf(`home-${out}`), dir);
    const runId = (JSON.parse(fs.readFileSync(path.join(dir, out, "run.json"), "utf8")) as { runId: string }).runId;
    const threads = measuredIds.map((id) => `eval:${runId}:${id}`);
    const stepsOf = store.db!.prepare("SELECT count(*) FROM checkpoints WHERE thread_id = ? AND checkpoint_ns = ''").pluck();
    const steps = threads.reduce((n, t) => n + (stepsOf.get(t) as number), 0) / total;
    const graph = baselineSpec.build({} as never, { checkpointer: store.saver });
    const updates: Updates = new Map();
    for (const [i, id] of measuredIds.entries()) {
      const s = (await graph.getState({ configurable: { thread_id: threads[i] } })).values as Record<string, unknown>;
      updates.set(id, { schema: { schemaText: s.schemaText }, generate: { sql: s.sql, calls: s.calls, usage: s.usage, attempts: s.attempts }, execute: { execution: s.execution } });
    }
    store.db!.pragma("wal_checkpoint(TRUNCATE)");
    const bytes = fs.statSync(store.location).size;
    store.close();

    const floor = async (saver: Saver) => {
      const f = await floorOnce(saver, updates, round);
      return { ...f, steps: f.steps ?? steps };
    };
    lastUpdates = updates;
    rounds.push({ sqlmend: { cpu: (cpu.user + cpu.system) / 1000 / total, wall: wall / total, steps }, stock: await floor("stock"), chunked: await floor("chunked"), memory: await floor("memory"), ex: result.ex, calls: result.calls, bytes, chars });
  }
  // Two parts of sqlmend's figure measured alone, on the last round's questions: the model call through ChatOpenAI
  // (as eval makes it, without the response cache), and scoring (prediction and gold run and compared in a worker).
  const { createOpenAIProvider, resolveModelConfig } = await import("../tools/models/models.ts");
  const { scoreQuestion } = await import("../tools/benchmarks/score.ts");
  const { getSharedExecutor } = await import("../tools/sqlite/executor.ts");
  const env = envOf("home-parts");
  const chat = createOpenAIProvider(resolveModelConfig({}, env, dir), env).forRole("generator").model;
  const prompts = measuredIds.map((id) => (lastUpdates.get(id)!.generate.calls as { messages: { role: string; content: string }[] }[])[0]!.messages);
  const partOf = async (each: (i: number) => Promise<unknown>) => {
    const c0 = process.cpuUsage();
    await pool(measuredIds.length, Number(values.concurrency), each);
    const c = process.cpuUsage(c0);
    return (c.user + c.system) / 1000 / measuredIds.length;
  };
  const modelCall = await partOf((i) => chat.invoke(prompts[i]!.map((m) => [m.role === "user" ? "human" : m.role, m.content] as [string, string])));
  const scoring = await partOf((i) => scoreQuestion(byId.get(measuredIds[i]!)!, String(lastUpdates.get(measuredIds[i]!)!.generate.sql), { executor: getSharedExecutor(), semantics: "spider" }));
  child.disconnect();

  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
  const of = (k: "sqlmend" | Saver) => ({ cpu: median(rounds.map((r) => r[k].cpu)), wall: median(rounds.map((r) => r[k].wall)), steps: rounds[0]![k].steps });
  const ms = (x: number) => x.toFixed(3).padStart(8);
  const [sqlmend, stock, chunked, memory] = [of("sqlmend"), of("stock"), of("chunked"), of("memory")];
  console.log(`baseline on ${bench.name}: ${total} questions (EX ${rounds[0]!.ex?.toFixed(1)}%, ${rounds[0]!.calls} model calls), concurrency ${values.concurrency}, response cache ${values.cache}; ${warmCount} questions warmed up first`);
  console.log(`model: an instant OpenAI-compatible server on 127.0.0.1 (a child process), reached through ChatOpenAI as eval reaches it`);
  console.log(`steps per question (checkpoints written): sqlmend ${sqlmend.steps.toFixed(2)}, floor ${stock.steps.toFixed(2)}; medians of ${rounds.length} rounds, this process's CPU`);
  console.log(``);
  console.log(`                                          CPU/question  CPU/step  wall/question`);
  const line = (name: string, f: Figures, note: string) => console.log(`${name.padEnd(42)}${ms(f.cpu)} ms ${ms(f.cpu / f.steps)} ms ${ms(f.wall)} ms   ${note}`);
  line("LangGraph floor, SqliteSaver on a file", stock, "(LangGraph's own SQLite checkpointer: the floor)");
  line("LangGraph floor, sqlmend's saver on a file", chunked, "(the chunked SQLite checkpointer eval uses)");
  line("LangGraph floor, MemorySaver", memory, "(no file: what LangGraph costs alone)");
  line("sqlmend eval, its saver on a file", sqlmend, "(the whole run: model calls, scoring, results, report)");
  console.log(`per round (CPU/question, ms): ${rounds.map((r) => `sqlmend ${r.sqlmend.cpu.toFixed(2)} / floor ${r.stock.cpu.toFixed(2)} / chunked ${r.chunked.cpu.toFixed(2)} / memory ${r.memory.cpu.toFixed(2)}`).join("; ")}`);
  console.log(`parts of sqlmend's figure, alone: a model call through ChatOpenAI ${modelCall.toFixed(2)} ms, scoring a question ${scoring.toFixed(2)} ms (CPU/question)`);
  // What sqlmend adds to LangGraph with the same saver, and how much of that the two parts measured alone explain.
  const beyond = sqlmend.cpu - chunked.cpu;
  console.log(`sqlmend beyond the floor with its own saver: ${beyond.toFixed(2)} ms a question: the model call and scoring ${(modelCall + scoring).toFixed(2)} ms, the rest ${(beyond - modelCall - scoring).toFixed(2)} ms (its nodes, the response cache, the SQL workers' messages, results, progress, report)`);
  const size = rounds[0]!;
  console.log(`checkpoint file: ${(size.bytes / 1024 / total).toFixed(1)} KiB per question, ${(size.bytes / size.chars).toFixed(2)}x the text of the prompts and replies it records (target <= 2x)`);
  console.log(``);
  // Each round's ratio (both sides under that round's load on the machine), then their median.
  const ratios = rounds.map((r) => r.sqlmend.cpu / r.sqlmend.steps / (r.stock.cpu / r.stock.steps));
  console.log(`per round, sqlmend's CPU per step / the floor's: ${ratios.map((x) => `${x.toFixed(2)}x`).join(", ")}`);
  const ratio = median(ratios);
  console.log(`sqlmend CPU per step / the floor's, median of the rounds: ${ratio.toFixed(2)}x (target <= 2x): ${ratio <= 2 ? "met" : "NOT met"}`);
  console.log(`sqlmend CPU per question: ${sqlmend.cpu.toFixed(2)} ms (target <= 5 ms): ${sqlmend.cpu <= 5 ? "met" : "NOT met"}`);
  fs.rmSync(dir, { recursive: true, force: true });
  process.exit(0);
}

/** Runs each(0..n-1) with at most `k` in flight. */
async function pool(n: number, k: number, each: (i: number) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: k }, async () => {
    while (next < n) await each(next++);
  }));
}

/** --profile FILE: a V8 CPU profile of the measured eval run alone (open it in Chrome's DevTools or speedscope). */
async function startProfile(): Promise<() => Promise<unknown>> {
  const { Session } = await import("node:inspector/promises");
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 200 });
  await session.post("Profiler.start");
  return async () => (await session.post("Profiler.stop")).profile;
}
