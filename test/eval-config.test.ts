/**
 * eval and replay take one typed config (issue 38, point 7): the launcher parses argv once into it, a script passes it
 * by name, and both run the same body — so a run started either way records the same settings (what `--resume`
 * compares) and the same command line; errors name the option a script passed and the flag a user typed.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { quietIO, replay, runEval } from "../index.ts";
import type { GraphSpec } from "../graphs/spec.ts";
import { launchCli, minibenchFixture, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";

let dir: string;
let benchDir: string;

beforeAll(async () => {
  dir = makeTempDir("sqlmend-eval-config-");
  ({ benchDir } = await minibenchFixture(dir));
});
afterAll(() => removeTempDir(dir));

const env = () => ({ SQLMEND_HOME: path.join(dir, "home") });
const runJson = (out: string) => JSON.parse(fs.readFileSync(path.join(out, "run.json"), "utf8"));
const commandOf = (out: string) => /^- Command: `(.*)`$/m.exec(fs.readFileSync(path.join(out, "report.md"), "utf8"))?.[1];

describe("one typed config for the launcher and the API", () => {
  it("`sqlmend eval …` and runEval({...}) with the same options record the same settings and command line", async () => {
    const launched = await launchCli(
      ["eval", "r3", "--bench", benchDir, "--out", "cli", "--model", "mock", "--ids", "1,2", "--ids", "3", "--temperature", "0", "--seed", "7", "--reviewers", "2", "--schema-max-chars", "30000", "--checkpoints", "memory"],
      dir,
      env(),
    );
    expect([launched.code, launched.err]).toEqual([0, expect.any(String)]);
    // The options in another order, numbers as numbers, the ids as a list: one config.
    const api = await runEval(
      { checkpoints: "memory", schemaMaxChars: 30000, seed: 7, temperature: 0, ids: ["1", 2, "3"], model: "mock", out: "api", bench: benchDir, graph: "r3", options: { reviewers: 2 } },
      quietIO({ cwd: dir, env: env() }),
    );
    expect(api.exitCode).toBe(0);
    const [cli, script] = [runJson(path.join(dir, "cli")), runJson(path.join(dir, "api"))];
    for (const key of ["graph", "settings", "selection", "models", "sample"]) expect([key, script[key]]).toEqual([key, cli[key]]);
    // Typed values: a number stays a number, the node module is recorded by content.
    expect(cli.settings).toMatchObject({ "schema-max-chars": 30000, reviewers: 2 });
    expect(cli.selection.ids).toEqual(["1", "2", "3"]);
    const command = commandOf(path.join(dir, "cli"));
    expect(command).toBe(`sqlmend eval r3 --bench ${benchDir} --ids 1,2,3 --out cli --model mock --temperature 0 --seed 7 --schema-max-chars 30000 --checkpoints memory --reviewers 2`);
    expect(commandOf(path.join(dir, "api"))?.replace(" --out api ", " --out cli ")).toBe(command);
    // So a script resumes what the launcher started (and the reverse): the same settings, nothing to refuse.
    const resumed = await runCli(["eval", "r3", "--bench", benchDir, "--out", "api", "--model", "mock", "--ids", "1,2,3", "--temperature", "0", "--seed", "7", "--reviewers", "2", "--schema-max-chars", "30000", "--checkpoints", "memory", "--resume"], dir, env());
    expect([resumed.code, resumed.err]).toEqual([0, expect.stringContaining("3 questions (3 already done")]);
    const refused = runEval({ graph: "r3", bench: benchDir, out: "cli", model: "mock", ids: "1,2,3", temperature: 0, seed: 7, schemaMaxChars: 40000, checkpoints: "memory", options: { reviewers: 2 }, resume: true }, quietIO({ cwd: dir, env: env() }));
    // A changed option is refused by its name: the script's word here, the flag on the command line.
    await expect(refused).rejects.toThrow(/^runEval: resume: .*cli: option schemaMaxChars was 30000, now 40000: resume with the same, or choose another out$/);
    const typed = await runCli(["eval", "r3", "--bench", benchDir, "--out", "api", "--model", "mock", "--ids", "1,2,3", "--temperature", "0", "--seed", "7", "--reviewers", "3", "--schema-max-chars", "30000", "--checkpoints", "memory", "--resume"], dir, env());
    expect([typed.code, typed.err]).toEqual([1, expect.stringMatching(/^sqlmend eval: --resume: .*api: option --reviewers was 2, now 3: resume with the same, or choose another --out\n$/)]);
  }, 120_000);
});

describe("modules given as objects", () => {
  it("a graph spec passed as graphModule runs, is recorded by its source text, and resumes", async () => {
    const { baselineSpec } = await import("../graphs/baseline.ts");
    const mine = { ...baselineSpec, name: "my-baseline" } as unknown as GraphSpec;
    const io = quietIO({ cwd: dir, env: env() });
    const first = await runEval({ graphModule: mine, bench: benchDir, out: "object-graph", model: "mock", limit: 2, checkpoints: "memory" }, io);
    expect(first).toMatchObject({ exitCode: 0, questions: 2 });
    const run = runJson(path.join(dir, "object-graph"));
    expect([run.graph, run.settings.graph]).toEqual(["my-baseline", { path: "graph object", sha256: expect.stringMatching(/^[0-9a-f]{64}$/) }]);
    expect(commandOf(path.join(dir, "object-graph"))).toMatch(/^sqlmend eval --bench \S+ --limit 2 --out object-graph --model mock --graph object:graph:[0-9a-f]{64} --checkpoints memory$/);
    const again = await runEval({ graphModule: { ...mine }, bench: benchDir, out: "object-graph", model: "mock", limit: 2, checkpoints: "memory", resume: true }, io);
    expect(again.exitCode).toBe(0);
  }, 60_000);
});

describe("errors name what the caller wrote", () => {
  it("a script reads the option's name, prefixed with the function; a user of the launcher reads the flag", async () => {
    const io = quietIO({ cwd: dir, env: env() });
    await expect(runEval({ graph: "baseline", bench: benchDir, out: "seed", model: "mock", sampleSeed: 3 }, io)).rejects.toThrow(/^runEval: sampleSeed S goes with sample N \(the seed of a stratified sample\)$/);
    const cli = await runCli(["eval", "baseline", "--bench", benchDir, "--out", "seed", "--model", "mock", "--sample-seed", "3"], dir, env());
    expect([cli.code, cli.err.split("\n")[0]]).toEqual([2, "sqlmend eval: --sample-seed S goes with --sample N (the seed of a stratified sample)"]);
    await expect(runEval({ graph: "baseline", bench: benchDir, out: "shard", model: "mock", shard: "3/2" }, io)).rejects.toThrow(/^runEval: shard takes I\/N with 1 <= I <= N \(e\.g\. 2\/4\), not '3\/2'$/);
    await expect(runEval({ graph: "baseline", bench: benchDir, out: "limit", limit: 0 }, io)).rejects.toThrow(/^runEval: limit takes a whole number >= 1, not 0$/);
    // @ts-expect-error only takes a declared choice
    await expect(replay({ run: "cli", from: "review", out: "r", only: "some" }, io)).rejects.toThrow(/^replay: only takes all, wrong, right, failed, not 'some'$/);
    await expect(replay({ run: "cli", from: "review", out: "cli" }, io)).rejects.toThrow(/^replay: out must be another folder than the run replayed$/);
    const same = await runCli(["replay", "cli", "--from", "review", "--out", "cli"], dir, env());
    expect([same.code, same.err.split("\n")[0]]).toEqual([2, "sqlmend replay: --out must be another folder than the run replayed"]);
    for (const out of ["seed", "shard", "limit"]) expect(fs.existsSync(path.join(dir, out))).toBe(false);
  }, 60_000);
});
