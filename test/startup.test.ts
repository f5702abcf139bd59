import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { distIsFresh, sourceSnapshot } from "../bin/freshness.js";
import { graphManifests } from "../graphs/registry.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
let dir: string;
beforeAll(() => {
  dir = makeTempDir("sqlmend-startup-");
});
afterAll(() => removeTempDir(dir));

/** A package root with bin/, sources (cli/main.ts) and a compiled dist/cli/main.js that say which one ran. */
function fakePackage(name: string): string {
  const root = path.join(dir, name);
  fs.mkdirSync(path.join(root, "bin"), { recursive: true });
  fs.writeFileSync(path.join(root, "package.json"), '{ "type": "module" }\n');
  for (const f of ["sqlmend.js", "freshness.js"]) fs.copyFileSync(path.join(ROOT, "bin", f), path.join(root, "bin", f));
  fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(root, "node_modules"));
  fs.mkdirSync(path.join(root, "cli"), { recursive: true });
  const main = (which: string) => `export async function main(argv${which === "source" ? ": string[]" : ""}) { process.stdout.write("${which} " + argv.join(" ")); return 0; }\n`;
  fs.writeFileSync(path.join(root, "cli", "main.ts"), main("source"));
  fs.mkdirSync(path.join(root, "dist", "cli"), { recursive: true });
  fs.writeFileSync(path.join(root, "dist", "cli", "main.js"), main("compiled"));
  // The process entry sets the launcher's heap limits before main (cli/shared/heap): a stand-in each side.
  const heap = "export function keepLauncherHeapSmall() {}\n";
  for (const dir of [path.join(root, "cli", "shared"), path.join(root, "dist", "cli", "shared")]) fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(root, "cli", "shared", "heap.ts"), heap);
  fs.writeFileSync(path.join(root, "dist", "cli", "shared", "heap.js"), heap);
  fs.writeFileSync(path.join(root, "dist", ".sources.json"), JSON.stringify(sourceSnapshot(root)));
  return root;
}
const run = (root: string, env: NodeJS.ProcessEnv = {}) =>
  spawnSync(process.execPath, [path.join(root, "bin", "sqlmend.js"), "hello"], { encoding: "utf8", env: { ...process.env, SQLMEND_SOURCE: "", ...env } }).stdout;

describe("bin/sqlmend.js", () => {
  it("runs dist/ while it matches the sources, the sources through tsx once they change, never stale code", () => {
    const root = fakePackage("pkg");
    expect(distIsFresh(root)).toBe(true);
    expect(run(root)).toBe("compiled hello");
    expect(run(root, { SQLMEND_SOURCE: "1" })).toBe("source hello");

    // An edited source file (its mtime moves) makes dist/ stale.
    const later = new Date(Date.now() + 5_000);
    fs.utimesSync(path.join(root, "cli", "main.ts"), later, later);
    expect(distIsFresh(root)).toBe(false);
    expect(run(root)).toBe("source hello");

    // Rebuilt: fresh again. Then a new file in a source folder makes it stale, and so does a deleted one.
    fs.writeFileSync(path.join(root, "dist", ".sources.json"), JSON.stringify(sourceSnapshot(root)));
    expect(run(root)).toBe("compiled hello");
    fs.writeFileSync(path.join(root, "cli", "extra.ts"), "export {};\n");
    expect(distIsFresh(root)).toBe(false);
    fs.writeFileSync(path.join(root, "dist", ".sources.json"), JSON.stringify(sourceSnapshot(root)));
    expect(distIsFresh(root)).toBe(true);
    fs.rmSync(path.join(root, "cli", "extra.ts"));
    expect(distIsFresh(root)).toBe(false);

    // No build at all (a fresh clone before npm install, or a failed build).
    fs.rmSync(path.join(root, "dist"), { recursive: true });
    expect(run(root)).toBe("source hello");
  });

  it("the compiled launcher loads a TypeScript slot module by registering tsx only then", () => {
    // tools/import-module.ts compiled to plain JavaScript, run by plain node without any loader.
    const out = path.join(dir, "compiled");
    fs.mkdirSync(out, { recursive: true });
    const source = fs.readFileSync(path.join(ROOT, "tools", "import-module.ts"), "utf8");
    const js = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    fs.writeFileSync(path.join(out, "import-module.mjs"), js);
    // The module hooks it registers, beside it as the build puts them.
    fs.copyFileSync(path.join(ROOT, "tools", "user-module-hooks.mjs"), path.join(out, "user-module-hooks.mjs"));
    fs.symlinkSync(path.join(ROOT, "node_modules"), path.join(dir, "node_modules"));
    fs.writeFileSync(path.join(out, "slot.ts"), "const factory = (deps: unknown, options: Record<string, unknown>): string => 'typed ' + typeof deps;\nexport default factory;\n");
    fs.writeFileSync(path.join(out, "plain.mjs"), "export default () => 'plain';\n");
    // The same module in an ESM package (a user's project with "type": "module").
    fs.mkdirSync(path.join(out, "esm"));
    fs.writeFileSync(path.join(out, "esm", "package.json"), '{ "type": "module" }\n');
    fs.copyFileSync(path.join(out, "slot.ts"), path.join(out, "esm", "slot.ts"));
    const script = `import { importModule } from "./import-module.mjs";
      const plain = await importModule(${JSON.stringify(path.join(out, "plain.mjs"))});
      const typed = await importModule(${JSON.stringify(path.join(out, "slot.ts"))});
      const esm = await importModule(${JSON.stringify(path.join(out, "esm", "slot.ts"))});
      console.log(plain.default(), typed.default({}, {}), esm.default(1, {}));`;
    fs.writeFileSync(path.join(out, "run.mjs"), script);
    const r = spawnSync(process.execPath, [path.join(out, "run.mjs")], { encoding: "utf8", cwd: out });
    expect(r.stderr).toBe("");
    expect(r.stdout.trim()).toBe("plain typed object typed number");
  });
});

describe("describing graphs and checking flags", () => {
  /** Runs the launcher as `npx sqlmend` would, recording every module the process loads. */
  const loaded = (args: string[], name: string) => {
    const file = path.join(dir, `loaded-${name}.txt`);
    const r = spawnSync(process.execPath, ["--import", path.join(ROOT, "test", "support", "loaded-modules.mjs"), ...args], {
      encoding: "utf8",
      cwd: dir,
      env: { ...process.env, SQLMEND_LOADED_MODULES: file, SQLMEND_HOME: path.join(dir, "home") },
    });
    const modules = fs.existsSync(file) ? fs.readFileSync(file, "utf8").split("\n").filter(Boolean) : [];
    return { status: r.status, stdout: r.stdout, stderr: r.stderr, modules };
  };
  const bin = path.join(ROOT, "bin", "sqlmend.js");

  it("the recorder sees LangGraph when it loads", () => {
    const control = loaded(["--input-type=module", "-e", "await import('@langchain/langgraph')"], "control");
    expect(control.status).toBe(0);
    expect(control.modules.some((m) => m.includes("/@langchain/langgraph/"))).toBe(true);
  });

  it("langgraph.json's entry module and the registry build nothing and load no LangGraph when imported", () => {
    const served = pathToFileURL(path.join(ROOT, "graphs", "served.ts")).href;
    const tsx = pathToFileURL(path.join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
    const r = loaded(["--import", tsx, "--input-type=module", "-e", `const m = await import(${JSON.stringify(served)}); console.log(Object.keys(m).length)`], "served");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.trim()).toBe(String(graphManifests.length)); // one factory per registered graph
    expect(r.modules.some((m) => /\/graphs\/registry\.ts$/.test(m))).toBe(true);
    expect(r.modules.filter((m) => /\/@langchain\/|\/graphs\/(baseline|r3|magic|memo-sql|ts-sql|correction-baselines)\.ts$/.test(m))).toEqual([]);
  });

  it("report.html's renderer and the chart module load Vega only when a chart is drawn", () => {
    const html = pathToFileURL(path.join(ROOT, "runner", "report", "report-html.ts")).href;
    const charts = pathToFileURL(path.join(ROOT, "tools", "charts.ts")).href;
    const tsx = pathToFileURL(path.join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
    const imported = loaded(["--import", tsx, "--input-type=module", "-e", `await import(${JSON.stringify(html)}); const c = await import(${JSON.stringify(charts)}); console.log(typeof c.groupedBarChart)`], "charts-imported");
    expect(imported.status, imported.stderr).toBe(0);
    expect(imported.stdout.trim()).toBe("function");
    expect(imported.modules.filter((m) => /\/node_modules\/vega/.test(m))).toEqual([]);
    // Drawing one loads it (the check above can see it).
    const drawn = loaded(["--import", tsx, "--input-type=module", "-e", `const c = await import(${JSON.stringify(charts)}); const svg = await c.groupedBarChart({ id: "c", title: "t", groups: ["g"], series: [{ name: "s", values: [1] }], unit: "" }); console.log(svg.includes('class="mark"'))`], "charts-drawn");
    expect(drawn.status, drawn.stderr).toBe(0);
    expect(drawn.stdout.trim()).toBe("true");
    expect(drawn.modules.some((m) => /\/node_modules\/vega-lite\//.test(m))).toBe(true);
  });

  it("expectedCalls (graphs/calls.ts) works out every graph's calls without loading LangGraph, LangChain or zod", () => {
    const calls = pathToFileURL(path.join(ROOT, "graphs", "calls.ts")).href;
    const registry = pathToFileURL(path.join(ROOT, "graphs", "registry.ts")).href;
    const tsx = pathToFileURL(path.join(ROOT, "node_modules", "tsx", "dist", "loader.mjs")).href;
    const script = `const { expectedCalls } = await import(${JSON.stringify(calls)}); const { graphManifests } = await import(${JSON.stringify(registry)}); console.log(graphManifests.filter((m) => expectedCalls(m, { "max-fix-rounds": "2" })).length)`;
    const r = loaded(["--import", tsx, "--input-type=module", "-e", script], "calls");
    expect(r.status, r.stderr).toBe(0);
    expect(Number(r.stdout.trim())).toBeGreaterThanOrEqual(11);
    expect(r.modules.filter((m) => /\/@langchain\/|\/node_modules\/zod\/|\/graphs\/(baseline|r3|magic|memo-sql|ts-sql)\.ts$/.test(m))).toEqual([]);
  });

  const cases: Array<[string, string[], number, RegExp]> = [
    ["help", ["--help"], 0, /Commands:/],
    ["graphs", ["graphs"], 0, /^baseline\s+generator/m],
    ["graphs --options", ["graphs", "--options"], 0, /--k-shot N/],
    ["graphs --slots", ["graphs", "--slots"], 0, /slot persona:/],
    ["ask --help", ["ask", "--help"], 0, /Usage: sqlmend ask/],
    ["eval GRAPH --help", ["eval", "r3", "--help"], 0, /Options of r3:[\s\S]*--reviewers N/],
    ["threads --help", ["threads", "--help"], 0, /Usage: sqlmend threads/],
    ["inspect --help", ["inspect", "--help"], 0, /Usage: sqlmend inspect/],
    ["magic --help", ["magic", "--help"], 0, /magic-feedback/],
    ["ts-sql --help", ["ts-sql", "--help"], 0, /TS-SQL options/],
    ["memo --help", ["memo", "--help"], 0, /Usage: sqlmend memo build/],
    ["link --help", ["link", "--help"], 0, /Usage: sqlmend link/],
    ["replay --help", ["replay", "--help"], 0, /Usage: sqlmend replay RUN_DIR --from SLOT/],
    ["replay usage error", ["replay", "runs/r3", "--from", "review", "--out", "out", "--only", "bad"], 2, /--only takes all, wrong, right, failed, not 'bad'/],
    ["bad option value", ["eval", "r3", "--reviewers=-1", "--bench", "minibench", "--out", "out"], 2, /--reviewers takes a number >= 0, not '-1'/],
    ["another graph's option", ["ask", "baseline", "--k-shot", "2", "--db", "x.sqlite", "q"], 2, /--k-shot is an option of r3, not of baseline/],
    ["bad model flag", ["eval", "baseline", "--bench", "minibench", "--out", "out", "--structured-method", "xml"], 2, /--structured-method takes auto, jsonSchema, functionCalling, jsonMode, text, not 'xml'/],
    ["unknown graph", ["eval", "nope", "--bench", "minibench", "--out", "out"], 1, /unknown graph 'nope'/],
  ];
  for (const [name, args, status, output] of cases) {
    it(`${name}: loads neither LangGraph nor LangChain nor zod nor the checkpoint store nor Vega`, () => {
      const r = loaded([bin, ...args], name.replace(/\W+/g, "-"));
      expect(r.status, r.stderr).toBe(status);
      expect(r.stdout + r.stderr).toMatch(output);
      expect(r.modules.some((m) => /\/cli\/main\.(ts|js)$/.test(m))).toBe(true);
      expect(r.modules.filter((m) => /\/@langchain\/|\/storage\/checkpoint|\/better-sqlite3\/|\/node_modules\/zod\/|\/node_modules\/vega/.test(m))).toEqual([]);
    });
  }

  it("score --help (a README form, timed by bench/startup.ts) prints its options from their declarations alone: no scorer, no SQL executor, no graph", () => {
    const r = loaded([bin, "score", "--help"], "score-help");
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Usage: sqlmend score[\s\S]*--bench DIR\|minibench[\s\S]*--metrics LIST[\s\S]*--only-predicted/);
    expect(r.modules.some((m) => /\/cli\/commands\/score\.(ts|js)$/.test(m))).toBe(true);
    expect(r.modules.filter((m) => /\/runner\/score\/score-predictions\.|\/tools\/benchmarks\/score\.|\/tools\/sqlite\/executor\.|\/graphs\/(registry|manifests\/)/.test(m))).toEqual([]);
  });
});
