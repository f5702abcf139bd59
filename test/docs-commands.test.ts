/**
 * Every documented command runs: each ```sh block of README.md, docs/**\/*.md and examples/*\/README.md is run with
 * bash, a page's blocks in order in one temporary folder (a later block reads what an earlier one wrote), against the
 * mock model with small limits. `npx sqlmend ARGS` and `node bin/sqlmend.js ARGS` reach the launcher in this process
 * through a tiny client (a process per command would take minutes); the arguments are rewritten so a run stays small:
 * `--model` → mock, any benchmark folder (../bird, ../spider) → minibench, `--limit 2` on runs over a benchmark,
 * experiments `--dry-run` (every run's flags and files checked, none run). A block that cannot run here is marked in
 * its page just before it with `<!-- docs-test: skip (why) -->`.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { main } from "../cli/main.ts";
import { DOCS_ROOT } from "../scripts/docs.ts";
import { buildMinibench } from "../tools/benchmarks/minibench/index.ts";
import { captureIO } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";

interface Block {
  file: string;
  line: number;
  code: string;
  skip?: string;
}

const SKIP = /^<!-- docs-test: skip \((.+)\) -->$/;

/** The ```sh blocks of a Markdown file, with the skip mark on the line before each (blank lines between allowed). */
export function shellBlocks(file: string): Block[] {
  const lines = fs.readFileSync(file, "utf8").split("\n");
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== "```sh") continue;
    const end = lines.findIndex((l, j) => j > i && l.trim() === "```");
    let before = i - 1;
    while (before >= 0 && !lines[before]!.trim()) before--;
    const skip = SKIP.exec(lines[before]?.trim() ?? "")?.[1];
    blocks.push({ file, line: i + 1, code: lines.slice(i + 1, end).join("\n"), ...(skip ? { skip } : {}) });
    i = end;
  }
  return blocks;
}

const pages = () => {
  const docs = (dir: string): string[] => fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? docs(path.join(dir, e.name)) : e.name.endsWith(".md") ? [path.join(dir, e.name)] : []));
  const examples = fs.readdirSync(path.join(DOCS_ROOT, "examples")).map((d) => path.join(DOCS_ROOT, "examples", d, "README.md")).filter((f) => fs.existsSync(f));
  return [path.join(DOCS_ROOT, "README.md"), ...docs(path.join(DOCS_ROOT, "docs")), ...examples].filter((f) => shellBlocks(f).length);
};

/** Commands that run questions over a benchmark: they get `--limit 2` unless they select already. */
const RUNS = new Set(["eval", "experiment", "magic", "memo", "ts-sql"]);

/** A documented command as it runs here: the mock model, minibench for a reader's benchmark, a small limit. */
export function rewrite(args: string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--model" || a === "--embedding-model") out.push(a, "mock"), i++;
    else if (a === "--role-model" || a === "--base-url" || a === "--embedding-base-url" || a === "--config") i++;
    else if (a === "--bench") out.push(a, "minibench"), i++;
    else if (a === "--concurrency") out.push(a, "2"), i++;
    else out.push(a);
  }
  // Questions on train feed MAGIC's guideline cycle: a few more, so it has failures to learn from.
  const few = out.includes("train") || (out[0] === "magic" && out[1] === "guideline") ? "4" : "2";
  for (let i = 0; i < out.length; i++) if (out[i] === "--limit" || out[i] === "--sample") out[i + 1] = few;
  const selects = out.some((a) => a === "--limit" || a === "--ids" || a === "--sample");
  if (RUNS.has(out[0]!) && out.includes("--bench") && !selects && !out.includes("--help")) out.push("--limit", few);
  // MAGIC learns from failures: a first answer wrong for every question, a few questions, batches of 2.
  if (out[0] === "magic" && out[1] === "guideline") {
    const at = out.indexOf("--batch");
    if (at >= 0) out[at + 1] = "2";
    else out.push("--batch", "2");
  }
  if (out[0] === "experiment" && !out.includes("--dry-run") && !out.includes("--list") && !out.includes("--print")) out.push("--dry-run");
  // Every first answer wrong: correction loops and MAGIC's cycle get work on so few questions.
  if (out.includes("--bench") && RUNS.has(out[0]!) && !out.includes("--help")) {
    if (!out.includes("--model")) out.push("--model", "mock");
    out.push("--mock-error-rate", "1");
  }
  return out;
}

let work: string;
let bin: string;
let sampleDb: string;
let server: http.Server;
beforeAll(async () => {
  work = makeTempDir("sqlmend-docs-");
  bin = path.join(work, "bin");
  fs.mkdirSync(bin);
  // minibench where `--bench minibench` looks for it, built once for every page; one of its databases stands in
  // for the reader's own (shop.sqlite, my.sqlite, ...).
  await buildMinibench(path.join(work, "home", "minibench"));
  const dbs = path.join(work, "home", "minibench", "dev_databases");
  const first = fs.readdirSync(dbs).sort()[0]!;
  sampleDb = path.join(dbs, first, `${first}.sqlite`);
  // The launcher in this process, one command at a time, for the client below.
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", async () => {
      const { args, cwd, env } = JSON.parse(body) as { args: string[]; cwd: string; env: Record<string, string> };
      const run = captureIO(cwd, { ...env, SQLMEND_MODEL: "mock", SQLMEND_HOME: path.join(work, "home"), SQLMEND_CACHE: "off" });
      let code: number;
      try {
        code = await main(rewrite(args), run.io);
      } catch (error) {
        run.io.stderr(`docs-test: ${String(error)}\n`);
        code = 99;
      }
      res.end(JSON.stringify({ code, out: run.out(), err: run.err() }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const client = path.join(bin, "client.mjs");
  fs.writeFileSync(
    client,
    `const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => /^(SQLMEND_|OPENAI_)/.test(k)));
const res = await fetch("http://127.0.0.1:${port}/", { method: "POST", body: JSON.stringify({ args: process.argv.slice(2), cwd: process.cwd(), env }) });
const { code, out, err } = await res.json();
process.stdout.write(out); process.stderr.write(err); process.exitCode = code;
`,
  );
  // npx sqlmend → the client; npm install / ci (done already) do nothing.
  fs.writeFileSync(path.join(bin, "npx"), `#!/bin/sh\n[ "$1" = sqlmend ] || { echo "docs-test: only 'npx sqlmend' runs here, not: npx $*" >&2; exit 127; }\nshift\nexec node ${JSON.stringify(client)} "$@"\n`, { mode: 0o755 });
  fs.writeFileSync(path.join(bin, "npm"), `#!/bin/sh\ncase "$1" in install|ci) exit 0;; run) [ "$2" = sqlmend ] && { shift 2; [ "$1" = -- ] && shift; exec node ${JSON.stringify(client)} "$@"; };; esac\necho "docs-test: npm $* does not run here" >&2; exit 127\n`, { mode: 0o755 });
}, 60_000);
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  removeTempDir(work);
});

function bash(code: string, cwd: string): Promise<{ code: number; out: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-e", "-o", "pipefail", "-c", code], { cwd, env: { PATH: `${bin}:${process.env.PATH}`, HOME: cwd }, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (out += c));
    child.on("close", (status) => resolve({ code: status ?? 1, out }));
  });
}

describe("documented commands", () => {
  it("rewrites a documented run to a small one on the mock model", () => {
    expect(rewrite(["eval", "memo-sql", "--bench", "../bird", "--out", "x", "--model", "qwen"])).toEqual(["eval", "memo-sql", "--bench", "minibench", "--out", "x", "--model", "mock", "--limit", "2", "--mock-error-rate", "1"]);
    expect(rewrite(["experiment", "magic-table1", "--bench", "minibench", "--out", "x"])).toEqual(["experiment", "magic-table1", "--bench", "minibench", "--out", "x", "--limit", "2", "--dry-run", "--model", "mock", "--mock-error-rate", "1"]);
  });

  it("every ```sh block of the README and docs runs, or says in its page why it cannot here", async () => {
    const failures: string[] = [];
    let ran = 0;
    for (const page of pages()) {
      // Inside the clone (runs/ is git-ignored), where a guide says its modules live: their imports resolve there.
      fs.mkdirSync(path.join(DOCS_ROOT, "runs"), { recursive: true });
      const cwd = fs.mkdtempSync(path.join(DOCS_ROOT, "runs", "docs-test-"));
      // The reader's own files the pages name: a database, and the guides' example modules (\`sqlmend\` = the sources).
      for (const db of ["shop.sqlite", "my.sqlite", "flights.sqlite"]) fs.copyFileSync(sampleDb, path.join(cwd, db));
      // The clone's launcher, as the README calls it (`node bin/sqlmend.js`): the client too.
      fs.mkdirSync(path.join(cwd, "bin"));
      fs.copyFileSync(path.join(bin, "client.mjs"), path.join(cwd, "bin", "sqlmend.js"));
      for (const file of fs.readdirSync(path.join(DOCS_ROOT, "examples/guides"))) {
        const text = fs.readFileSync(path.join(DOCS_ROOT, "examples/guides", file), "utf8").replaceAll('from "sqlmend"', `from ${JSON.stringify(path.join(DOCS_ROOT, "index.ts"))}`);
        fs.writeFileSync(path.join(cwd, file), text);
      }
      try {
        for (const block of shellBlocks(page)) {
          const where = `${path.relative(DOCS_ROOT, page)}:${block.line}`;
          if (block.skip !== undefined) {
            if (block.skip.trim().length < 8) failures.push(`${where}: a skip mark says why in a few words`);
            continue;
          }
          const started = Date.now();
          const run = await bash(block.code, cwd);
          if (process.env.DOCS_TEST_TIMES) console.log(`${Date.now() - started} ms ${where}`);
          ran++;
          if (run.code !== 0) failures.push(`${where}: exit ${run.code}\n${run.out.split("\n").filter((l) => !/^\[[#.]+\]/.test(l)).slice(-6).join("\n")}`);
        }
      } finally {
        removeTempDir(cwd);
      }
    }
    expect(failures, failures.join("\n\n")).toEqual([]);
    expect(ran).toBeGreaterThan(20);
  }, 240_000);
});
