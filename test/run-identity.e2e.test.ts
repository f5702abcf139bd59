/**
 * Code identity (issue 26, point 6): run.json records the sha256 of every `--node` module and sqlmend's own code
 * (version + a digest of its sources); `--resume` refuses a change of either in one line naming it and how to start
 * a new run, and leaves the run folder as it was; report.md lists both.
 */
import fs from "node:fs";
import path from "node:path";
import { spawn } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { changedSourceFiles, codeIdentity } from "../tools/version.ts";
import { MemoryStore } from "../tools/retrieval/memory-store.ts";
import { SOURCE_ROOTS } from "../bin/freshness.js";
import { goldServerFixture, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer, TEST_MODEL_ID } from "./support/openai-server.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
let dir: string;
let benchDir: string;
let server: OpenAIServer;

beforeAll(async () => {
  dir = makeTempDir("sqlmend-identity-");
  ({ benchDir, server } = await goldServerFixture(dir));
});
afterAll(async () => {
  await server.close();
  removeTempDir(dir);
});

const env = () => ({ OPENAI_BASE_URL: server.url, SQLMEND_MODEL: TEST_MODEL_ID, SQLMEND_HOME: path.join(dir, "home") });

function snapshot(folder: string): Record<string, string> {
  return Object.fromEntries(fs.readdirSync(folder).map((name) => [name, fs.readFileSync(path.join(folder, name), "base64")]));
}

/** A copy of the package (its sources, bin/, package.json; node_modules linked) that a test may edit. */
function packageCopy(name: string): string {
  const copy = path.join(dir, name);
  fs.mkdirSync(copy);
  for (const rel of [...SOURCE_ROOTS, "bin", "package.json", "tsconfig.json"]) fs.cpSync(path.join(ROOT, rel), path.join(copy, rel), { recursive: true });
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(copy, "node_modules"));
  return copy;
}

function launch(root: string, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [path.join(root, "bin", "sqlmend.js"), ...args], { cwd: dir, env: { ...process.env, ...env(), OPENAI_API_KEY: "k" }, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  return new Promise((resolve) => child.once("exit", (code) => resolve({ code, out, err })));
}

describe("--node modules are known by their content", () => {
  it("an edited module is refused on --resume in one line, the folder untouched; the same bytes elsewhere resume", async () => {
    const module = path.join(dir, "mine.mjs");
    const write = (sql: string) => fs.writeFileSync(module, `export default () => async () => ({ sql: ${JSON.stringify(sql)}, attempts: [{ node: "mine", sql: ${JSON.stringify(sql)}, ok: true }] });\n`);
    write("SELECT 1");
    const out = path.join(dir, "node-run");
    const args = (file: string, ...more: string[]) => ["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "2", "--checkpoints", "memory", "--node", `generate=${file}`, ...more];
    expect((await runCli(args(module), dir, env())).code).toBe(0);

    const runFile = JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8"));
    const sha = runFile.settings.node.generate.sha256 as string;
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    expect(runFile.settings.node.generate.path).toBe(module);

    // The module copied elsewhere, unchanged: the same module, the resume goes on.
    const moved = path.join(dir, "moved.mjs");
    fs.copyFileSync(module, moved);
    const same = await runCli(args(moved, "--resume"), dir, env());
    expect(same.code, same.err).toBe(0);
    expect(same.err).toMatch(/2 questions \(2 already done/);

    write("SELECT 2");
    const before = snapshot(out);
    const asked = server.requests.length;
    const edited = await runCli(args(module, "--resume"), dir, env());
    expect(edited.code).toBe(1);
    expect(edited.err.trim().split("\n")).toHaveLength(1);
    expect(edited.err.trim()).toMatch(
      new RegExp(`^sqlmend eval: --resume: .*node-run: the --node generate module ${module.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")} changed since the run started \\(sha256 ${sha.slice(0, 12)}…, now [0-9a-f]{12}…\\): resume with it as it was, or start a new run with another --out$`),
    );
    expect(snapshot(out)).toEqual(before);
    expect(server.requests.length).toBe(asked);

    const code = await codeIdentity();
    expect(runFile.code).toEqual(code);
    // report.md's settings list the code identity and the module's hash.
    const report = fs.readFileSync(path.join(out, "report.md"), "utf8");
    expect(report).toContain(`"code": "${code.version}, sources sha256 ${code.sha256.slice(0, 16)}"`);
    expect(report).toContain(`"sha256": "${sha}"`);
  }, 60_000);
});

describe("sqlmend's own code identity", () => {
  it("is the version and a digest of every source file: an edit of nodes/r3/prompts.ts changes it; a package without sources uses its build's", async () => {
    const copy = packageCopy("pkg-digest");
    const before = await codeIdentity(copy);
    expect(before).toEqual({ version: JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")).version, sha256: expect.stringMatching(/^[0-9a-f]{64}$/), of: "sources", files: expect.objectContaining({ "nodes/r3/prompts.ts": expect.stringMatching(/^[0-9a-f]{16}$/) }) });
    expect(before).toEqual(await codeIdentity(ROOT));
    fs.appendFileSync(path.join(copy, "nodes", "r3", "prompts.ts"), "\n// an edit\n");
    const edited = path.join(dir, "pkg-edited");
    fs.renameSync(copy, edited); // codeIdentity caches per root: the edited copy under another root
    const after = await codeIdentity(edited);
    expect(after.sha256).not.toBe(before.sha256);
    expect(changedSourceFiles(before, after)).toEqual(["nodes/r3/prompts.ts"]);

    // An installed package ships dist/ without sources: the digest its build recorded.
    const installed = path.join(dir, "pkg-installed");
    fs.mkdirSync(path.join(installed, "dist"), { recursive: true });
    fs.cpSync(path.join(ROOT, "bin"), path.join(installed, "bin"), { recursive: true });
    fs.copyFileSync(path.join(ROOT, "package.json"), path.join(installed, "package.json"));
    fs.writeFileSync(path.join(installed, "dist", ".sources.json"), JSON.stringify({ roots: SOURCE_ROOTS, entries: {}, sha256: before.sha256 }));
    expect(await codeIdentity(installed)).toEqual({ version: before.version, sha256: before.sha256, of: "build" });
  }, 60_000);

  it("a resume after sqlmend's sources changed is refused in one line, the folder untouched", async () => {
    const copy = packageCopy("pkg-launcher");
    const out = path.join(dir, "code-run");
    const args = ["eval", "baseline", "--bench", benchDir, "--out", out, "--limit", "1", "--checkpoints", "memory"];
    const first = await launch(copy, args);
    expect(first.code, first.err).toBe(0);
    // Unchanged code resumes.
    expect((await launch(copy, [...args, "--resume"])).code).toBe(0);

    fs.appendFileSync(path.join(copy, "nodes", "r3", "prompts.ts"), "\n// a prompt edited between the run and its resume\n");
    const before = snapshot(out);
    const resumed = await launch(copy, [...args, "--resume"]);
    expect(resumed.code).toBe(1);
    expect(resumed.err.trim().split("\n")).toHaveLength(1);
    expect(resumed.err).toMatch(/^sqlmend eval: --resume: .*code-run: sqlmend's code changed since the run started \(nodes\/r3\/prompts\.ts; .+, sources sha256 [0-9a-f]{16}; now .+, sources sha256 [0-9a-f]{16}\): finish it with the code it started with, or start a new run with another --out\n$/);
    expect(snapshot(out)).toEqual(before);
  }, 120_000);
});

describe("memo build --resume", () => {
  it("refuses a memory whose build started under other sqlmend code, in one line, asking nothing", async () => {
    const file = path.join(dir, "memory.sqlite");
    const args = ["memo", "build", "--bench", benchDir, "--out", file, "--limit", "2", "--concurrency", "1", "--cache", "off"];
    expect((await runCli(args, dir, env())).code).toBe(0);
    const store = MemoryStore.open(file);
    expect(JSON.parse(store.getMeta("code")!)).toEqual(await codeIdentity());
    // The build as another version of sqlmend would have recorded it.
    store.setMeta("code", JSON.stringify({ version: "0.0.1", sha256: "ab".repeat(32), of: "sources" }));
    const done = store.done().size;
    store.close();
    const asked = server.requests.length;
    const resumed = await runCli([...args.slice(0, 6), "--limit", "4", "--resume"], dir, env());
    expect(resumed.code).toBe(1);
    expect(resumed.err.trim().split("\n")).toHaveLength(1);
    expect(resumed.err).toMatch(/--resume: .*memory\.sqlite: sqlmend's code changed since the memory's build started \(0\.0\.1, sources sha256 abababababababab; now .+\): finish it with the code it started with, or build a new memory with another --out/);
    expect(server.requests.length).toBe(asked);
    const after = MemoryStore.open(file);
    expect(after.done().size).toBe(done);
    after.close();
  }, 60_000);
});
