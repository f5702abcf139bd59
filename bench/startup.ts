/**
 * Start-up of every launcher command against a bare `node -e 0`, measured alternately in one run (median of --runs).
 * Each command is timed on `--help` (the launcher's own start: loading the command and its modules), plus `graphs`,
 * `graphs --options`, `eval r3 --help` (they describe graphs without building any) and a real `exec` on a small
 * database; with the compiled launcher (dist/, when fresh) and with the sources through tsx. First, the launcher as the
 * README's commands start it (its first `… sqlmend` in a code block: `npx sqlmend`, `npm run sqlmend --`, a bin
 * link...), run through the shell from the checkout exactly so, on `--help` and `score --help`, beside the 1.5x target
 * (issue 42, target 3).
 * Run: npx tsx bench/startup.ts [--runs N]
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import Database from "better-sqlite3";
import { distIsFresh } from "../bin/freshness.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "7" } } });
const runs = Math.max(1, Number(values.runs));
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const BIN = path.join(ROOT, "bin", "sqlmend.js");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-startup-"));
const dbFile = path.join(tmp, "t.sqlite");
const db = new Database(dbFile);
db.exec("CREATE TABLE t (a INTEGER); INSERT INTO t VALUES (1), (2);");
db.close();

const cases: Array<[string, string[]]> = [
  ["--help", ["--help"]],
  ...["graphs", "ask", "eval", "compare", "threads", "inspect", "exec", "score", "link", "magic", "ts-sql", "memo"].map((c): [string, string[]] => [`${c} --help`, [c, "--help"]]),
  // Describing graphs builds none: the listing, every graph's options, one graph's flags.
  ["graphs", ["graphs"]],
  ["graphs --options", ["graphs", "--options"]],
  ["eval r3 --help", ["eval", "r3", "--help"]],
  ["exec (a query)", ["exec", "--db", dbFile, "SELECT a FROM t"]],
];
const time = (args: string[], env: NodeJS.ProcessEnv) => {
  const t = performance.now();
  const r = spawnSync(process.execPath, args, { env, encoding: "utf8" });
  const ms = performance.now() - t;
  if (r.status !== 0 && !args.includes("--help")) throw new Error(`${args.join(" ")}: ${r.stderr}`);
  return ms;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const baseEnv = { ...process.env, SQLMEND_SOURCE: "" };
const sourceEnv = { ...process.env, SQLMEND_SOURCE: "1" };

const bare: number[] = [];
const compiled = new Map<string, number[]>(cases.map(([n]) => [n, []]));
const source = new Map<string, number[]>(cases.map(([n]) => [n, []]));
for (let i = 0; i < runs; i++) {
  for (const [name, args] of cases) {
    bare.push(time(["-e", "0"], baseEnv));
    compiled.get(name)!.push(time([BIN, ...args], baseEnv));
    source.get(name)!.push(time([BIN, ...args], sourceEnv));
  }
}
// The floor a command that runs graphs cannot go below: importing LangGraph itself.
const langgraph: number[] = [];
for (let i = 0; i < runs; i++) langgraph.push(time(["--input-type=module", "-e", "await import('@langchain/langgraph')"], { ...baseEnv }));

// The documented form: how the README's commands start sqlmend, timed as a user types it (through the shell).
const DOCUMENTED_TARGET = 1.5;
function documentedLauncher(): string | undefined {
  const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
  const blocks = [...readme.matchAll(/```(?:bash|sh|shell)?\n([\s\S]*?)```/g)].map((m) => m[1]!);
  for (const line of blocks.flatMap((b) => b.split("\n"))) {
    const m = /(?:^|[\s;&|(])((?:npx\s+|npm\s+run\s+|npm\s+exec\s+|pnpm\s+|yarn\s+|node\s+)?(?:\.?\/?[\w./-]*\/)?sqlmend(?:\.js)?(?:\s+--(?=\s))?)(?=\s)/.exec(line);
    if (m && !m[1]!.includes("#")) return m[1]!.trim();
  }
  return undefined;
}
const documented = documentedLauncher();
const shellTime = (command: string) => {
  const t = performance.now();
  spawnSync("sh", ["-c", command], { cwd: ROOT, env: baseEnv, encoding: "utf8" });
  return performance.now() - t;
};
const documentedTimes = new Map<string, number[]>([["--help", []], ["score --help", []]]);
const documentedBare: number[] = [];
if (documented) {
  for (let i = 0; i < runs; i++) {
    for (const [name, times] of documentedTimes) {
      documentedBare.push(shellTime(`${JSON.stringify(process.execPath)} -e 0`));
      times.push(shellTime(`${documented} ${name}`));
    }
  }
}

const b = median(bare);
console.log(`node ${process.version}, cpus: ${os.availableParallelism()}, runs: ${runs}, dist/ fresh: ${distIsFresh(ROOT)}`);
console.log(`bare node -e 0: ${b.toFixed(0)} ms (median)   import('@langchain/langgraph') alone: ${median(langgraph).toFixed(0)} ms = ${(median(langgraph) / b).toFixed(2)}x`);
if (!documented) console.log("README: no command starting sqlmend found in its code blocks (the documented form not timed)");
else {
  const db = median(documentedBare);
  for (const [name, times] of documentedTimes) {
    const t = median(times);
    console.log(`README's form \`${documented} ${name}\`, from the checkout: ${t.toFixed(0)} ms = ${(t / db).toFixed(2)}x node -e 0 (${db.toFixed(0)} ms, also through sh); target <= ${DOCUMENTED_TARGET}x: ${t / db <= DOCUMENTED_TARGET ? "met" : "NOT met"}`);
  }
}
console.log(`${"command".padEnd(16)} ${"compiled".padStart(9)} ${"ratio".padStart(6)} ${"sources".padStart(9)} ${"ratio".padStart(6)}`);
for (const [name] of cases) {
  const c = median(compiled.get(name)!);
  const s = median(source.get(name)!);
  console.log(`${name.padEnd(16)} ${c.toFixed(0).padStart(6)} ms ${(c / b).toFixed(2).padStart(5)}x ${s.toFixed(0).padStart(6)} ms ${(s / b).toFixed(2).padStart(5)}x`);
}
fs.rmSync(tmp, { recursive: true, force: true });
