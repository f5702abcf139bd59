/**
 * The value index (tools/linking/value-index.ts): build time, size on disk and peak memory, then lookup latency
 * (median, p90) on a reused index — for the largest Spider database and for a generated table of N distinct strings.
 * Each build and each lookup run happens in a fresh child process, so peak RSS is the build's own (plus Node and tsx).
 * Run: npx tsx bench/linking.ts [--spider SPIDER/database] [--values 1000000] [--lookups 300]
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { closeValueIndexes, openValueIndex } from "../tools/linking/value-index.ts";

const { values } = parseArgs({
  options: {
    spider: { type: "string" },
    values: { type: "string", default: "1000000" },
    lookups: { type: "string", default: "300" },
    child: { type: "string" },
    db: { type: "string" },
    data: { type: "string" },
    keywords: { type: "string" },
  },
});
const mib = (bytes: number) => bytes / 2 ** 20;
const peakRssMiB = () => process.resourceUsage().maxRSS / 1024;

if (values.child === "build") {
  const before = mib(process.memoryUsage().rss);
  const index = await openValueIndex(values.db!, { dataDir: values.data! });
  console.log(JSON.stringify({ ...index.stats, rssBeforeMiB: before, peakRssMiB: peakRssMiB() }));
  process.exit(0);
}
if (values.child === "lookup") {
  let t = performance.now();
  const index = await openValueIndex(values.db!, { dataDir: values.data! });
  const loadMs = performance.now() - t;
  if (!index.reused) throw new Error("expected a reused index");
  const keywords = JSON.parse(fs.readFileSync(values.keywords!, "utf8")) as string[];
  for (const k of keywords.slice(0, 20)) index.lookup(k); // warm-up
  const times: number[] = [];
  let found = 0;
  for (const k of keywords) {
    t = performance.now();
    const hits = index.lookup(k);
    times.push(performance.now() - t);
    if (hits.length) found++;
  }
  times.sort((a, b) => a - b);
  const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!;
  console.log(JSON.stringify({ loadMs, lookups: times.length, found, medianMs: at(0.5), p90Ms: at(0.9), maxMs: times.at(-1), peakRssMiB: peakRssMiB() }));
  process.exit(0);
}

// ---------------------------------------------------------------------------------------------

const work = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-bench-linking-"));
let seed = 12345;
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
const pick = <T>(list: T[]) => list[Math.floor(random() * list.length)]!;

function child(kind: string, db: string, data: string, keywords?: string): Record<string, number> {
  const args = ["--import", "tsx", path.resolve(import.meta.dirname, "linking.ts"), "--child", kind, "--db", db, "--data", data];
  if (keywords) args.push("--keywords", keywords);
  return JSON.parse(execFileSync(process.execPath, args, { encoding: "utf8", maxBuffer: 1 << 20 }));
}

/**
 * Keywords drawn from the database's own text: a third as stored, a third misspelt (a letter dropped from a word of
 * five letters or more), a third absent.
 */
function keywordsFor(db: string, count: number): string[] {
  const conn = new Database(db, { readonly: true });
  const texts: string[] = [];
  for (const table of conn.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").pluck().all() as string[]) {
    for (const column of conn.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(table) as string[]) {
      const q = (s: string) => `"${s.replace(/"/g, '""')}"`;
      texts.push(...(conn.prepare(`SELECT ${q(column)} FROM ${q(table)} WHERE typeof(${q(column)}) = 'text' AND length(${q(column)}) BETWEEN 4 AND 40 ORDER BY random() LIMIT 50`).pluck().all() as string[]));
    }
  }
  conn.close();
  const words = texts.flatMap((t) => t.split(/\s+/)).filter((w) => /^\p{L}{5,}$/u.test(w));
  const out: string[] = [];
  for (let i = 0; out.length < count && texts.length; i++) {
    const kind = i % 3;
    if (kind === 0) out.push(pick(texts));
    else if (kind === 1 && words.length) {
      const w = pick(words);
      const at = 1 + Math.floor(random() * (w.length - 2));
      out.push(w.slice(0, at) + w.slice(at + 1));
    } else out.push(`zq${Math.floor(random() * 1e6).toString(36)}vex`);
  }
  return out;
}

function measure(label: string, db: string, lookups: number): void {
  const data = path.join(work, `data-${label.replace(/\W+/g, "-")}`);
  const keywordsFile = path.join(work, `keywords-${label.replace(/\W+/g, "-")}.json`);
  fs.writeFileSync(keywordsFile, JSON.stringify(keywordsFor(db, lookups)));
  const wall = performance.now();
  const build = child("build", db, data);
  const buildWallMs = performance.now() - wall;
  const lookup = child("lookup", db, data, keywordsFile);
  const f = (n: number, d = 0) => n.toFixed(d);
  console.log(
    `${label}: ${f(mib(fs.statSync(db).size), 1)} MiB database, ${build.entries!.toLocaleString()} entries, ${build.keys!.toLocaleString()} keys\n` +
      `  build ${f(build.buildMs! / 1000, 2)} s (child process wall ${f(buildWallMs / 1000, 2)} s incl. start-up); index ${f(mib(build.bytes!), 1)} MiB on disk; ` +
      `peak RSS ${f(build.peakRssMiB!)} MiB (process before the build: ${f(build.rssBeforeMiB!)} MiB)\n` +
      `  lookup over ${lookup.lookups} keywords (${lookup.found} with matches): median ${f(lookup.medianMs!, 3)} ms, p90 ${f(lookup.p90Ms!, 3)} ms, max ${f(lookup.maxMs!, 2)} ms; ` +
      `index load ${f(lookup.loadMs!)} ms; peak RSS ${f(lookup.peakRssMiB!)} MiB`,
  );
}

console.log(`cores: ${os.cpus().length}; node ${process.version}`);
const lookups = Number(values.lookups);
closeValueIndexes();
if (values.spider) {
  const dbs = fs
    .readdirSync(values.spider)
    .flatMap((d) => {
      const dirPath = path.join(values.spider!, d);
      return fs.statSync(dirPath).isDirectory() ? fs.readdirSync(dirPath).filter((f) => f.endsWith(".sqlite")).map((f) => path.join(dirPath, f)) : [];
    })
    .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  if (!dbs.length) throw new Error(`no .sqlite files under ${values.spider}`);
  measure(`largest Spider database (${path.basename(dbs[0]!)})`, dbs[0]!, lookups);
}

const count = Number(values.values);
const generated = path.join(work, "distinct.sqlite");
const syllables = ["ka", "lo", "mi", "tre", "va", "zu", "ne", "ro", "sa", "pi", "den", "bor", "qua", "lin", "fe", "mo", "xi", "ta", "ru", "go", "ael", "ist"];
const word = () => {
  let w = "";
  for (let i = 0, n = 2 + Math.floor(random() * 3); i < n; i++) w += pick(syllables);
  return w[0]!.toUpperCase() + w.slice(1);
};
const gen = new Database(generated);
gen.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, label TEXT NOT NULL UNIQUE)");
const insert = gen.prepare("INSERT OR IGNORE INTO items (label) VALUES (?)");
let made = 0;
gen.transaction(() => {
  // Two or three pseudo-words, a number on some: realistic names, all distinct (UNIQUE drops repeats).
  while (made < count) made += insert.run(random() < 0.5 ? `${word()} ${word()}` : `${word()} ${word()} ${Math.floor(random() * 10_000)}`).changes;
})();
gen.close();
measure(`generated table of ${count.toLocaleString()} distinct strings`, generated, lookups);
fs.rmSync(work, { recursive: true, force: true });
