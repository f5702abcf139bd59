/**
 * sqlmend as a dependency: `npm pack` of a copy of the project (its `prepare` builds dist/ with type declarations),
 * the tarball unpacked as `node_modules/sqlmend` of a temporary project whose other packages are this project's
 * installed ones (no network), then examples/custom-node/index.mjs — plain Node ESM, `import ... from "sqlmend"` —
 * builds the baseline graph with its `schema` node swapped and runs it against the scripted model server. And the
 * tree a consumer's npm installs is the tested one: package-lock.json's production packages hold without overrides.
 */
import { execFileSync, spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, startOpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";
import { minibenchFixture } from "./support/cli.ts";
import { distIsFresh, sourceSnapshot } from "../bin/freshness.js";

/** minibench's dev questions with their gold SQL, from a build of our own. */
async function goldOf(dir: string): Promise<[string, string][]> {
  const { dev } = await minibenchFixture(dir);
  return dev.map((q) => [q.question, q.goldSql!]);
}

const ROOT = path.resolve(import.meta.dirname, "..");
const SKIP = new Set(["node_modules", "dist", ".git", ".sqlmend", "runs", "coverage"]);
let dir: string;
let project: string;
let server: OpenAIServer;

function copyProject(from: string, to: string) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (SKIP.has(entry.name) || entry.name.endsWith(".tgz")) continue;
    const [src, dst] = [path.join(from, entry.name), path.join(to, entry.name)];
    if (entry.isDirectory()) copyProject(src, dst);
    else if (entry.isFile()) fs.copyFileSync(src, dst);
  }
}

beforeAll(async () => {
  dir = makeTempDir();
  const copy = path.join(dir, "sqlmend");
  copyProject(ROOT, copy);
  // The tree's own build, when it matches its sources, is what `npm pack` packs (its `prepare` then builds nothing):
  // the copy gets it with a snapshot of the copy's sources. A stale or missing build is built by `prepare`, as on a
  // clone. (test/build.test.ts tests the build itself.)
  if (distIsFresh(ROOT)) {
    fs.cpSync(path.join(ROOT, "dist"), path.join(copy, "dist"), { recursive: true });
    fs.writeFileSync(path.join(copy, "dist", ".sources.json"), JSON.stringify(sourceSnapshot(copy)));
  }
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"));
  const packed = execFileSync("npm", ["pack", "--json", "--pack-destination", dir], { cwd: copy, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  const tarball = path.join(dir, (JSON.parse(packed.slice(packed.indexOf("["))) as { filename: string }[])[0]!.filename);

  project = path.join(dir, "consumer");
  const modules = path.join(project, "node_modules");
  fs.mkdirSync(path.join(modules, "sqlmend"), { recursive: true });
  execFileSync("tar", ["-xzf", tarball, "-C", path.join(modules, "sqlmend"), "--strip-components=1"]);
  // Its dependencies: this project's installed packages (the tarball's own package.json names them).
  for (const name of fs.readdirSync(path.join(ROOT, "node_modules"))) {
    if (name === ".bin" || name.startsWith(".")) continue;
    fs.symlinkSync(path.join(ROOT, "node_modules", name), path.join(modules, name));
  }
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  fs.copyFileSync(path.join(ROOT, "examples", "custom-node", "index.mjs"), path.join(project, "index.mjs"));
  fs.copyFileSync(path.join(ROOT, "examples", "run-eval", "index.mjs"), path.join(project, "run-eval.mjs"));
  // minibench's questions get their gold SQL (runEval's example), any other prompt the dogs count (custom-node's).
  const gold = await goldOf(path.join(dir, "bench"));
  server = await startOpenAIServer({
    respond: (req) => {
      const text = req.messages.map((m) => m.content).join("\n");
      const sql = gold.find(([question]) => text.includes(`Question: ${question}\n`))?.[1] ?? "SELECT count(*) FROM dogs";
      return { content: `\`\`\`sql\n${sql}\n\`\`\``, usage: { prompt_tokens: 50, completion_tokens: 8 } };
    },
  });
}, 180_000);
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

describe("the packed package", () => {
  it("holds the compiled library with type declarations, and no TypeScript sources", () => {
    const pkg = path.join(project, "node_modules", "sqlmend");
    for (const file of ["dist/index.js", "dist/index.d.ts", "dist/cli/main.js", "dist/tools/sqlite/worker.cjs", "dist/tools/sandbox/sandbox-worker.js", "bin/sqlmend.js"]) {
      expect(fs.existsSync(path.join(pkg, file)), file).toBe(true);
    }
    expect(fs.existsSync(path.join(pkg, "index.ts"))).toBe(false);
    expect(fs.existsSync(path.join(pkg, "graphs"))).toBe(false);
  });

  it("holds every file its README links to (the reference in docs/)", () => {
    const pkg = path.join(project, "node_modules", "sqlmend");
    const links = [...fs.readFileSync(path.join(pkg, "README.md"), "utf8").matchAll(/\]\((?![a-z]+:)([^)#\s]+)/g)].map((m) => m[1]!);
    expect(links.length).toBeGreaterThan(0);
    expect(links.filter((link) => !fs.existsSync(path.join(pkg, link)))).toEqual([]);
  });

  it("imports in plain Node ESM and runs a graph with a swapped node against a scripted model", async () => {
    const db = makeDb(dir, "pets.sqlite", "CREATE TABLE dogs (id INTEGER PRIMARY KEY, name TEXT); CREATE TABLE cats (id INTEGER PRIMARY KEY, name TEXT); INSERT INTO dogs VALUES (1,'Rex'),(2,'Fido');");
    // Not spawnSync: the scripted server answers from this process.
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ["index.mjs", db, "How many dogs are there?"], {
        cwd: project,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") },
      });
      let [stdout, stderr] = ["", ""];
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("close", (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.stderr).toBe("");
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ sql: "SELECT count(*) FROM dogs", ok: true, rows: [[2]] });
    // The swapped node's schema reached the model: the question's table only.
    const prompt = server.requests.at(-1)!.messages.map((m) => m.content).join("\n");
    expect(prompt).toContain("-- tables named in the question");
    expect(prompt).toMatch(/CREATE TABLE "?dogs"?/);
    expect(prompt).not.toMatch(/CREATE TABLE "?cats"?/);
  });

  it("runs a benchmark from a script: runEval writes the run folder the command writes and returns its figures", async () => {
    const run = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, ["run-eval.mjs", "runs/baseline"], {
        cwd: project,
        env: { PATH: process.env.PATH, HOME: process.env.HOME, OPENAI_BASE_URL: server.url, OPENAI_API_KEY: "k", SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") },
      });
      let [stdout, stderr] = ["", ""];
      child.stdout.on("data", (d) => (stdout += d));
      child.stderr.on("data", (d) => (stderr += d));
      child.on("close", (status) => resolve({ status, stdout, stderr }));
    });
    expect(run.status, run.stderr).toBe(0);
    const figures = JSON.parse(run.stdout.trim().split("\n").at(-1)!);
    expect(figures).toEqual({ exitCode: 0, ex: 100, scored: 5, failed: 0, report: path.join(project, "runs", "baseline", "report.md") });
    const out = path.join(project, "runs", "baseline");
    for (const file of ["results.jsonl", "report.md", "report.html", "run.json", "predict_dev.json", "pred_dev.sql"]) expect(fs.existsSync(path.join(out, file)), file).toBe(true);
    expect(fs.readFileSync(path.join(out, "results.jsonl"), "utf8").trim().split("\n")).toHaveLength(5);
    expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toMatch(/sqlmend eval baseline --bench minibench/);
    // Its charts, drawn by the package's runtime dependency (Vega-Lite, loaded on first use).
    expect(fs.readFileSync(path.join(out, "report.html"), "utf8")).toMatch(/<path class="mark" data-chart="ex-by-difficulty" data-series="baseline" data-group="all" data-value="100"/);
  }, 120_000);

  it("its launcher runs from the compiled code", () => {
    const run = spawnSync(process.execPath, [path.join(project, "node_modules", "sqlmend", "bin", "sqlmend.js"), "graphs"], { cwd: project, encoding: "utf8", env: { ...process.env, SQLMEND_DEBUG: "1" } });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/^baseline\s+generator/m);
    expect(run.stderr).not.toMatch(/running the sources/);
  });

  it("the tested tree is one a consumer's install resolves: no override needed, every engine met on this Node", () => {
    type Entry = { version: string; dev?: boolean; link?: boolean; optional?: boolean; engines?: { node?: string }; dependencies?: Record<string, string>; peerDependencies?: Record<string, string>; peerDependenciesMeta?: Record<string, { optional?: boolean }> };
    const semver = createRequire(import.meta.url)("semver") as { satisfies(v: string, range: string, o?: object): boolean };
    const lock = (JSON.parse(fs.readFileSync(path.join(ROOT, "package-lock.json"), "utf8")) as { packages: Record<string, Entry> }).packages;
    const tarball = JSON.parse(fs.readFileSync(path.join(project, "node_modules", "sqlmend", "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(tarball.dependencies).toEqual((lock[""] as Entry).dependencies);
    // Where Node finds `dep` from the package at `where` (its own node_modules, then each parent's).
    const resolve = (where: string, dep: string): Entry | undefined => {
      for (let base = where; ; base = base.includes("/node_modules/") ? base.slice(0, base.lastIndexOf("/node_modules/")) : "") {
        const found = lock[`${base ? `${base}/` : ""}node_modules/${dep}`];
        if (found) return found;
        if (!base) return undefined;
      }
    };
    const problems: string[] = [];
    for (const [where, entry] of Object.entries(lock)) {
      if (entry.dev || entry.link) continue;
      const name = where || "sqlmend";
      // --engine-strict refuses a package whose engines this Node does not meet.
      if (entry.engines?.node && !semver.satisfies(process.version, entry.engines.node, { includePrerelease: true })) problems.push(`${name}@${entry.version} needs node ${entry.engines.node}`);
      // Overrides hold only in this project: a consumer's npm honours every declared range, so each must accept what was tested.
      const wanted = { ...entry.dependencies, ...Object.fromEntries(Object.entries(entry.peerDependencies ?? {}).filter(([dep]) => !entry.peerDependenciesMeta?.[dep]?.optional)) };
      for (const [dep, range] of Object.entries(wanted)) {
        const found = resolve(where, dep);
        if (found && !semver.satisfies(found.version, range, { includePrerelease: true })) problems.push(`${name} wants ${dep}@${range}, tested with ${found.version}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
