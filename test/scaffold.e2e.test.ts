/**
 * `sqlmend new` and `sqlmend check` (issue 38, point 3): a typed start for a node or a method in a folder outside the
 * clone, type-checked against its slot (or as a graph) as tsc --strict would, then run by eval — the path a
 * researcher takes from nothing to a number. Real launcher, the local OpenAI-compatible server.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkModule } from "../runner/lab/scaffold.ts";
import { goldServerFixture, launchCli, resultsOf, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type OpenAIServer } from "./support/openai-server.ts";


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

const launch = (cwd: string, args: string[]) => launchCli(args, cwd, env());

const env = () => ({ OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home"), SQLMEND_CACHE: "off" });
const model = () => ["--model", "m", "--base-url", server.url, "--max-retries", "0", "--checkpoints", "memory"];

describe("new → check → eval in a folder of one's own", () => {
  it("new node writes a stub typed by its slot that compiles and runs; an edit that breaks the slot's type is refused by check", async () => {
    const folder = path.join(dir, "my-node");
    const made = await runCli(["new", "node", "--graph", "baseline", "--slot", "generate", path.join(folder, "my-generate.ts")], dir, env());
    expect(made.code, made.err).toBe(0);
    for (const file of ["my-generate.ts", "package.json", "tsconfig.json"]) expect(fs.existsSync(path.join(folder, file)), file).toBe(true);
    const stub = fs.readFileSync(path.join(folder, "my-generate.ts"), "utf8");
    expect(stub).toContain('const node: SlotFactory<typeof baselineSpec, "generate">');
    expect(stub).toMatch(/Its model calls name the role 'generator'/);
    // A second new on the same file never overwrites it.
    expect((await runCli(["new", "node", "--graph", "baseline", "--slot", "generate", path.join(folder, "my-generate.ts")], dir, env())).err).toMatch(/exists: choose another file name/);

    const checked = await runCli(["check", "my-generate.ts"], folder, env());
    expect(checked.code, checked.err).toBe(0);
    expect(checked.out).toBe("my-generate.ts: compiles as node baseline generate\n");

    const out = path.join(folder, "run");
    const run = await launch(folder, ["eval", "baseline", "--node", "generate=my-generate.ts", "--bench", benchDir, "--out", out, "--limit", "2", ...model()]);
    expect(run.code, run.err).toBe(0);
    expect([...(await resultsOf(out)).values()].every((r) => r.correct)).toBe(true);

    // What tsc would refuse: the node returning a number.
    fs.writeFileSync(path.join(folder, "broken.ts"), stub.replace("return original(input);", "return 42;"));
    const broken = await checkModule({ file: "broken.ts", cwd: folder });
    expect(broken.ok).toBe(false);
    expect(broken.errors.join("\n")).toMatch(/broken\.ts\(\d+,\d+\): error TS2322: Type .* is not assignable to type 'NodeFactory</);
  }, 120_000);

  it("new graph writes a method that compiles as a graph and runs with eval --graph", async () => {
    const folder = path.join(dir, "my-method");
    const made = await runCli(["new", "graph", path.join(folder, "checked-baseline.ts")], dir, env());
    expect(made.code, made.err).toBe(0);
    const checked = await checkModule({ file: "checked-baseline.ts", cwd: folder });
    expect(checked, checked.errors.join("\n")).toMatchObject({ ok: true, as: "graph" });
    const out = path.join(folder, "run");
    const run = await launch(folder, ["eval", "--graph", "checked-baseline.ts", "--bench", benchDir, "--out", out, "--limit", "2", ...model()]);
    expect(run.code, run.err).toBe(0);
    expect([...(await resultsOf(out)).values()].map((r) => (r.outcome as { checked?: boolean } | undefined)?.checked)).toEqual([true, true]);
  }, 120_000);
});
