/**
 * A module of one's own loads from anywhere (issue 38, point 2): the guides' modules, copied into a folder outside the
 * clone with no node_modules — with no package.json, under a CommonJS package.json, and under an ESM one — import
 * `sqlmend` and `@langchain/langgraph` and run through the real launcher (a child process, as a user starts it),
 * resolving to sqlmend's own copies. The local OpenAI-compatible server answers.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { goldServerFixture, launchCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer } from "./support/openai-server.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const GUIDES = path.join(ROOT, "examples", "guides");

let dir: string;
let benchDir: string;
let server: OpenAIServer;

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, server } = await goldServerFixture(dir));
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

const launch = (cwd: string, args: string[]) => launchCli(args, cwd, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" });

/** A folder outside the clone holding the guides' modules, with the given package.json (or none), and no node_modules. */
function folderWith(name: string, packageJson?: object): string {
  const folder = path.join(dir, name);
  fs.mkdirSync(folder);
  for (const file of ["plan-first-generate.ts", "verify-graph.ts"]) fs.copyFileSync(path.join(GUIDES, file), path.join(folder, file));
  if (packageJson) fs.writeFileSync(path.join(folder, "package.json"), JSON.stringify(packageJson));
  return folder;
}

describe("the guides' modules outside the clone", () => {
  // One launch each (a launch of the sources costs seconds): an eval where the module swaps a node, and the listing
  // of a graph module.
  for (const [name, packageJson] of [
    ["no package.json", undefined],
    ["a CommonJS package.json", { name: "mine", type: "commonjs" }],
  ] as const) {
    it(`load with ${name}: a node swap runs an eval, importing sqlmend from no node_modules of their own`, async () => {
      const folder = folderWith(name.replace(/\W+/g, "-"), packageJson);
      expect(fs.existsSync(path.join(folder, "node_modules"))).toBe(false);
      const out = path.join(folder, "run");
      const run = await launch(folder, ["eval", "baseline", "--node", "generate=plan-first-generate.ts", "--plan-steps", "2", "--bench", benchDir, "--out", out, "--limit", "2", "--checkpoints", "memory", "--model", "m", "--base-url", server.url, "--max-retries", "0"]);
      expect(run.err).not.toMatch(/Cannot find module|Transform failed|No "exports" main/);
      expect(run.code, run.err).toBe(0);
      expect(fs.readFileSync(path.join(out, "report.md"), "utf8")).toContain("- `--node generate`: ran in 2 of 2 questions");
    }, 120_000);
  }

  it("load with an ESM package.json: the graph module is listed with its slots", async () => {
    const folder = folderWith("esm", { name: "mine", type: "module" });
    const listed = await launch(folder, ["graphs", "--slots", "--graph", "verify-graph.ts"]);
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toMatch(/slot verify:/);
  }, 120_000);
});
