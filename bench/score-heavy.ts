/**
 * Heavy scoring (issue 42, target 5): a database of 2 million rows (built here, seeded) and 200 join/aggregate pairs
 * (the gold predicted back), scored by the whole `sqlmend score` process against
 * - a bare two-process better-sqlite3 loop (this process's parent and one forked child, half the pairs each: prepare,
 *   `.raw().all()` both sides, BIRD's set rule over JSON row keys; no time limit, no SQL workers, no Spider rules):
 *   sqlmend under BIRD semantics ≤ 1.15× its wall time and its CPU;
 * - Spider's official exec_eval.eval_exec_match on the same pairs (bench/official-peers.ts): sqlmend under Spider
 *   semantics ≤ 1.0× its CPU.
 * Each command runs in turn, round after round (--rounds), after one untimed round; medians of wall time and of the
 * CPU of each whole process tree. Exits 1 naming a missing peer (--ts-official).
 *
 *   npx tsx bench/score-heavy.ts --ts-official PATH [--rounds N] [--cpus N] [--db FILE] [--python BIN] [--baseline CHECKOUT]
 *
 * --db FILE: build the database there once and reuse it on later runs (default: a temporary one, removed).
 * --baseline CHECKOUT: another sqlmend checkout (built), its `score` timed in the same rounds (before/after figures).
 * Run `npm run build` first (otherwise the launcher runs the sources through tsx).
 */
import { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { distIsFresh } from "../bin/freshness.js";
import { everyGoldRight, interleavedRounds, PeerMissing, pythonOf, runPeerBench, secs, spiderPeer, sqlmendCorrect, testSuiteDir, timed } from "./official-peers.ts";

const USAGE = "usage: npx tsx bench/score-heavy.ts --ts-official PATH [--rounds N] [--cpus N] [--db FILE] [--python BIN] [--baseline CHECKOUT]";
const { values } = parseArgs({
  options: {
    "ts-official": { type: "string" },
    rounds: { type: "string", default: "3" },
    cpus: { type: "string" },
    db: { type: "string" },
    python: { type: "string" },
    baseline: { type: "string" },
    help: { type: "boolean" },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const rounds = Math.max(1, Number(values.rounds));
const cpus = Math.max(1, Number(values.cpus ?? os.availableParallelism()));
const python = pythonOf(values.python);

const ORDERS = 2_000_000;
const CUSTOMERS = 20_000;
const PRODUCTS = 2_000;
const DAYS = 730;

/** The database: customers, products and 2 M orders, indexed as an analyst's would be; seeded, so every build is equal. */
function buildDatabase(file: string): void {
  const partial = `${file}.building`;
  rmSync(partial, { force: true });
  const db = new Database(partial);
  db.pragma("journal_mode = OFF");
  db.pragma("synchronous = OFF");
  db.exec(`CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT NOT NULL, region TEXT NOT NULL, segment TEXT NOT NULL);
    CREATE TABLE products (id INTEGER PRIMARY KEY, category TEXT NOT NULL, price REAL NOT NULL);
    CREATE TABLE orders (id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), product_id INTEGER NOT NULL REFERENCES products(id), qty INTEGER NOT NULL, amount REAL NOT NULL, day INTEGER NOT NULL);`);
  let seed = 42;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pick = (n: number) => Math.floor(random() * n);
  db.transaction(() => {
    const c = db.prepare("INSERT INTO customers VALUES (?, ?, ?, ?)");
    for (let i = 1; i <= CUSTOMERS; i++) c.run(i, `customer ${i}`, `r${pick(10)}`, `s${pick(5)}`);
    const p = db.prepare("INSERT INTO products VALUES (?, ?, ?)");
    for (let i = 1; i <= PRODUCTS; i++) p.run(i, `c${pick(20)}`, Math.round(random() * 10_000) / 100);
    const o = db.prepare("INSERT INTO orders VALUES (?, ?, ?, ?, ?, ?)");
    for (let i = 1; i <= ORDERS; i++) {
      const qty = 1 + pick(9);
      o.run(i, 1 + pick(CUSTOMERS), 1 + pick(PRODUCTS), qty, Math.round(qty * random() * 5_000) / 100, pick(DAYS));
    }
  })();
  db.exec("CREATE INDEX orders_day ON orders(day); CREATE INDEX orders_customer ON orders(customer_id); CREATE INDEX orders_product ON orders(product_id); CREATE INDEX customers_region ON customers(region, segment); ANALYZE;");
  db.close();
  renameSync(partial, file);
}

/** 200 join/aggregate queries over it, from eight shapes (aggregates, groups, a few row-returning joins), seeded. */
function heavyQueries(): string[] {
  let seed = 7;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const pick = (n: number) => Math.floor(random() * n);
  const shapes: Array<() => string> = [
    () => { const d = pick(DAYS - 2); return `SELECT c.region, count(*), sum(o.amount) FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.day BETWEEN ${d} AND ${d + 1} GROUP BY c.region`; },
    () => `SELECT p.category, count(*), avg(o.qty) FROM orders o JOIN products p ON p.id = o.product_id WHERE o.day = ${pick(DAYS)} GROUP BY p.category ORDER BY p.category`,
    () => `SELECT o.customer_id, sum(o.amount) FROM orders o WHERE o.product_id = ${1 + pick(PRODUCTS)} GROUP BY o.customer_id`,
    () => { const d = pick(DAYS); return `SELECT c.segment, p.category, count(*), round(sum(o.amount), 2) FROM orders o JOIN customers c ON c.id = o.customer_id JOIN products p ON p.id = o.product_id WHERE c.region = 'r${pick(10)}' AND o.day = ${d} GROUP BY c.segment, p.category`; },
    () => { const d = pick(DAYS - 1); return `SELECT o.id, o.qty, o.amount, c.name FROM orders o JOIN customers c ON c.id = o.customer_id WHERE o.day BETWEEN ${d} AND ${d + 1} AND c.segment = 's${pick(5)}'`; },
    () => `SELECT c.id, c.name, count(o.id) FROM customers c JOIN orders o ON o.customer_id = c.id WHERE c.region = 'r${pick(10)}' AND c.segment = 's${pick(5)}' GROUP BY c.id ORDER BY count(o.id) DESC, c.id LIMIT 50`,
    () => { const d = pick(DAYS - 3); return `SELECT o.day, count(*), sum(o.qty) FROM orders o WHERE o.day BETWEEN ${d} AND ${d + 2} GROUP BY o.day`; },
    () => { const d = pick(DAYS - 3); return `SELECT o.customer_id, o.product_id, o.amount FROM orders o WHERE o.day BETWEEN ${d} AND ${d + 2}`; },
  ];
  return Array.from({ length: 200 }, (_, i) => shapes[i % shapes.length]!());
}

/**
 * The floor: two processes (this script and one fork of it), each running its half of the pairs with better-sqlite3
 * and comparing them by BIRD's rule. Plain ESM, run by path; better-sqlite3 from sqlmend's own node_modules.
 */
const BARE_LOOP = `import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
const Database = createRequire(process.env.BARE_REQUIRE_FROM)("better-sqlite3");
const [file, part] = process.argv.slice(2);
const job = JSON.parse(readFileSync(file, "utf8"));
function half(k) {
  const db = new Database(job.db, { readonly: true, fileMustExist: true });
  let correct = 0;
  job.pairs.forEach(([pred, gold], i) => {
    if (i % 2 !== k) return;
    try {
      const p = db.prepare(pred).raw(true).all();
      const g = db.prepare(gold).raw(true).all();
      const gs = new Set(g.map((r) => JSON.stringify(r)));
      const ps = new Set(p.map((r) => JSON.stringify(r)));
      if (ps.size === gs.size && [...ps].every((r) => gs.has(r))) correct++;
    } catch {}
  });
  db.close();
  return correct;
}
if (part === "child") process.send(half(1), () => process.exit(0));
else {
  const child = fork(process.argv[1], [file, "child"]);
  let other;
  child.on("message", (n) => (other = n));
  const mine = half(0);
  child.on("exit", () => console.log("correct", mine + other, job.pairs.length));
}
`;

const tmp = mkdtempSync(path.join(os.tmpdir(), "sqlmend-score-heavy-"));
await runPeerBench("score-heavy", tmp, async () => {
  const tsDir = testSuiteDir(values["ts-official"]);
  // The database in a folder of its own: exec_eval runs each pair on every .sqlite file beside the question's.
  const dbFile = values.db ? path.resolve(values.db) : path.join(tmp, "db", "heavy", "heavy.sqlite");
  const dbRoot = path.dirname(path.dirname(dbFile));
  if (path.basename(path.dirname(dbFile)) !== "heavy" || path.basename(dbFile) !== "heavy.sqlite") throw new PeerMissing(`--db ${values.db}: name it .../heavy/heavy.sqlite (sqlmend finds DIR/<db_id>/<db_id>.sqlite)`);
  if (!existsSync(dbFile)) {
    mkdirSync(path.dirname(dbFile), { recursive: true });
    const started = performance.now();
    buildDatabase(dbFile);
    console.log(`built ${dbFile} (${ORDERS + CUSTOMERS + PRODUCTS} rows) in ${secs(performance.now() - started)} s`);
  }
  const queries = heavyQueries();
  const questions = path.join(tmp, "questions.jsonl");
  writeFileSync(questions, queries.map((gold, i) => `${JSON.stringify({ id: `h${i}`, question: `heavy ${i}`, db_id: "heavy", gold })}\n`).join(""));
  writeFileSync(path.join(tmp, "bare-job.json"), JSON.stringify({ db: dbFile, pairs: queries.map((q) => [q, q]) }));
  writeFileSync(path.join(tmp, "bare-loop.mjs"), BARE_LOOP);
  const spider = spiderPeer(python, tsDir, path.join(tmp, "spider"), queries.map((q) => ({ pred: q, gold: q, db: dbFile })));
  const baseline = values.baseline ? path.resolve(values.baseline, "bin/sqlmend.js") : undefined;
  if (baseline && !existsSync(baseline)) throw new PeerMissing(`--baseline ${values.baseline}: no bin/sqlmend.js there`);
  const sqlmend = (semantics: string, launcher = path.join(ROOT, "bin/sqlmend.js")) => [launcher, "score", "--questions", questions, "--db-dir", dbRoot, "--pred", "gold", "--semantics", semantics, "--concurrency", String(cpus)];

  const runs = {
    bare: () => timed("the bare loop", process.execPath, [path.join(tmp, "bare-loop.mjs"), path.join(tmp, "bare-job.json")], { env: { ...process.env, BARE_REQUIRE_FROM: path.join(ROOT, "package.json") } }),
    sqlmendBird: () => timed("sqlmend score --semantics bird", process.execPath, sqlmend("bird")),
    spiderPeer: () => timed("the official exec_eval loop", python, spider.args, { cwd: spider.cwd }),
    sqlmendSpider: () => timed("sqlmend score --semantics spider", process.execPath, sqlmend("spider")),
    baselineBird: () => timed("the baseline's score --semantics bird", process.execPath, sqlmend("bird", baseline)),
    baselineSpider: () => timed("the baseline's score --semantics spider", process.execPath, sqlmend("spider", baseline)),
  };
  type Name = keyof typeof runs;
  const names = (Object.keys(runs) as Name[]).filter((n) => baseline || !n.startsWith("baseline"));
  console.log(`database: ${dbFile}, ${queries.length} join/aggregate pairs (the gold predicted back)`);
  console.log(`peers: a bare two-process better-sqlite3 loop (${process.execPath}); Spider ${path.join(tsDir, "exec_eval.py")} (eval_exec_match per pair, ${python})`);
  console.log(`sqlmend: bin/sqlmend.js score --concurrency ${cpus}; cpus ${os.availableParallelism()}, load average ${os.loadavg().map((l) => l.toFixed(1)).join(" ")}`);
  if (!distIsFresh(ROOT)) console.log("note: dist/ is missing or older than the sources, so `sqlmend` runs them through tsx (slower start); run `npm run build` first");
  for (const n of spider.notes) console.log(`note: ${n}`);

  const { results, wall, cpu } = interleavedRounds(runs, names, rounds);
  const list = (n: Name) => results[n].map((t) => `${secs(t.wallMs)}/${secs(t.cpuMs)}`).join(" ");
  const bareCorrect = /^correct (\d+)/m.exec(results.bare.at(-1)!.stdout)?.[1];
  const oursBird = sqlmendCorrect(results.sqlmendBird.at(-1)!.stdout);
  const oursSpider = sqlmendCorrect(results.sqlmendSpider.at(-1)!.stdout);
  const spiderCorrect = spider.correctOf(results.spiderPeer.at(-1)!.stdout);
  console.log("");
  console.log(`median of ${rounds} rounds, wall (CPU of the process tree); runs as wall/CPU in seconds`);
  console.log(`  sqlmend, bird semantics:   ${secs(wall("sqlmendBird"))} s (${secs(cpu("sqlmendBird"))} s), correct ${oursBird?.correct}/${oursBird?.count}   runs ${list("sqlmendBird")}`);
  console.log(`  bare loop (BIRD's rule):   ${secs(wall("bare"))} s (${secs(cpu("bare"))} s), correct ${bareCorrect}/${queries.length}   runs ${list("bare")}`);
  console.log(`  sqlmend, spider semantics: ${secs(wall("sqlmendSpider"))} s (${secs(cpu("sqlmendSpider"))} s), correct ${oursSpider?.correct}/${oursSpider?.count}   runs ${list("sqlmendSpider")}`);
  console.log(`  exec_eval:                 ${secs(wall("spiderPeer"))} s (${secs(cpu("spiderPeer"))} s), correct ${spiderCorrect}/${queries.length}   runs ${list("spiderPeer")}`);
  const wallRatio = wall("sqlmendBird") / wall("bare");
  const cpuRatio = cpu("sqlmendBird") / cpu("bare");
  const spiderCpuRatio = cpu("sqlmendSpider") / cpu("spiderPeer");
  console.log("");
  console.log(`heavy scoring: sqlmend score (bird) / bare loop = ${wallRatio.toFixed(2)}x wall, ${cpuRatio.toFixed(2)}x CPU (target <= 1.15x both: ${wallRatio <= 1.15 && cpuRatio <= 1.15 ? "met" : "NOT met"})`);
  if (baseline) {
    console.log(`baseline ${baseline}: bird ${secs(wall("baselineBird"))} s (${secs(cpu("baselineBird"))} s) = ${(wall("baselineBird") / wall("bare")).toFixed(2)}x wall, ${(cpu("baselineBird") / cpu("bare")).toFixed(2)}x CPU of the bare loop   runs ${list("baselineBird")}`);
    console.log(`                  spider ${secs(wall("baselineSpider"))} s (${secs(cpu("baselineSpider"))} s) = ${(cpu("baselineSpider") / cpu("spiderPeer")).toFixed(2)}x exec_eval's CPU   runs ${list("baselineSpider")}`);
  }
  console.log(`heavy scoring: sqlmend score (spider) / exec_eval = ${spiderCpuRatio.toFixed(2)}x CPU (target <= 1.0x: ${spiderCpuRatio <= 1 ? "met" : "NOT met"}); wall ${(wall("sqlmendSpider") / wall("spiderPeer")).toFixed(2)}x`);
  return everyGoldRight([oursBird?.correct, oursSpider?.correct, Number(bareCorrect), spiderCorrect], queries.length);
});
