/**
 * One build, never half a build: scripts/build.js on a tiny project of its own whose `tsc` is a stub (it writes two
 * modules and, when asked, waits for the test before it exits), so the test sees what a command sees mid-build.
 */
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8")) as { scripts: Record<string, string> };

/** The stub compiler: dist's two modules (b says which build wrote it), a line per call, and an optional pause. */
const STUB_TSC = `
const fs = require("node:fs");
const path = require("node:path");
const root = path.resolve(__dirname, "../../..");
const at = process.argv.indexOf("--outDir");
const out = at >= 0 ? process.argv[at + 1] : path.join(root, "dist");
fs.appendFileSync(path.join(root, "tsc-calls.log"), "tsc\\n");
const n = fs.readFileSync(path.join(root, "tsc-calls.log"), "utf8").split("\\n").filter(Boolean).length;
fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, "a.js"), "export const a = 1;\\n");
fs.writeFileSync(path.join(out, "b.js"), "export const build = " + n + ";\\n");
if (process.env.STUB_PAUSE) {
  fs.writeFileSync(path.join(root, "tsc-paused"), "");
  while (!fs.existsSync(path.join(root, "tsc-go"))) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
}
`;

let project: string;
beforeEach(() => {
  project = makeTempDir("sqlmend-build-");
  for (const file of ["scripts/build.js", "bin/freshness.js"]) {
    fs.mkdirSync(path.join(project, path.dirname(file)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, file), path.join(project, file));
  }
  fs.writeFileSync(path.join(project, "package.json"), JSON.stringify({ name: "tiny", type: "module", scripts: pkg.scripts }));
  fs.writeFileSync(path.join(project, "tsconfig.build.json"), "{}");
  fs.mkdirSync(path.join(project, "core"));
  fs.writeFileSync(path.join(project, "core", "a.ts"), "export const a = 1;\n");
  const tsc = path.join(project, "node_modules", "typescript", "bin");
  fs.mkdirSync(tsc, { recursive: true });
  fs.writeFileSync(path.join(project, "node_modules", "typescript", "package.json"), JSON.stringify({ name: "typescript" }));
  fs.writeFileSync(path.join(tsc, "tsc"), STUB_TSC);
});
afterEach(() => removeTempDir(project));

const build = (...args: string[]) => spawnSync(process.execPath, [path.join(project, "scripts/build.js"), ...args], { cwd: project, encoding: "utf8" });
const tscCalls = () => fs.readFileSync(path.join(project, "tsc-calls.log"), "utf8").split("\n").filter(Boolean).length;
const waitFor = async (file: string) => {
  while (!fs.existsSync(path.join(project, file))) await new Promise((resolve) => setTimeout(resolve, 20));
};

describe("scripts/build.js", () => {
  it("a command running while the build rebuilds still finds every module of dist/", async () => {
    expect(build().status).toBe(0);
    expect(fs.existsSync(path.join(project, "dist", ".sources.json"))).toBe(true);
    // A command that loaded part of dist/ and loads the rest lazily, later (as the launcher's commands do).
    const command = spawn(
      process.execPath,
      ["--input-type=module", "-e", `import fs from "node:fs";
await import(${JSON.stringify(path.join(project, "dist", "a.js"))});
fs.writeFileSync(${JSON.stringify(path.join(project, "command-ready"))}, "");
while (!fs.existsSync(${JSON.stringify(path.join(project, "command-go"))})) await new Promise((r) => setTimeout(r, 20));
const b = await import(${JSON.stringify(path.join(project, "dist", "b.js"))});
console.log(b.build);`],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    let said = "";
    command.stdout.on("data", (c) => (said += c));
    command.stderr.on("data", (c) => (said += c));
    const commandDone = new Promise<number>((resolve) => command.on("close", (code) => resolve(code ?? 1)));
    await waitFor("command-ready");
    // The rebuild, paused inside its compiler: the command loads the rest of dist/ now.
    const rebuild = spawn(process.execPath, [path.join(project, "scripts/build.js")], { cwd: project, env: { ...process.env, STUB_PAUSE: "1" }, stdio: "ignore" });
    const rebuilt = new Promise<number>((resolve) => rebuild.on("close", (code) => resolve(code ?? 1)));
    await waitFor("tsc-paused");
    fs.writeFileSync(path.join(project, "command-go"), "");
    expect(await commandDone, said).toBe(0);
    expect(said.trim()).toBe("1");
    fs.writeFileSync(path.join(project, "tsc-go"), "");
    expect(await rebuilt).toBe(0);
    // The new build in place, nothing of the swap left behind.
    expect(fs.readFileSync(path.join(project, "dist", "b.js"), "utf8")).toContain("build = 2");
    expect(fs.readdirSync(project).filter((f) => f.startsWith("dist"))).toEqual(["dist"]);
  }, 60_000);

  it("the README's flow builds once: prepare after a build that matches the sources builds nothing", () => {
    // npm install runs prepare; a second npm install (the README's test command) runs it again.
    for (let i = 0; i < 2; i++) expect(spawnSync("sh", ["-c", pkg.scripts.prepare!], { cwd: project, encoding: "utf8" }).status).toBe(0);
    expect(tscCalls()).toBe(1);
    // An edited source makes dist/ stale: prepare builds again.
    const source = path.join(project, "core", "a.ts");
    fs.utimesSync(source, new Date(), new Date(Date.now() + 5_000));
    expect(spawnSync("sh", ["-c", pkg.scripts.prepare!], { cwd: project }).status).toBe(0);
    expect(tscCalls()).toBe(2);
  });

  it("the README runs the launcher of the clone as it is (npx would install the clone into its cache and build it again)", () => {
    const readme = fs.readFileSync(path.join(ROOT, "README.md"), "utf8");
    const setUp = readme.slice(readme.indexOf("## Set up"), readme.indexOf("\n## ", readme.indexOf("## Set up") + 1));
    const blocks = [...setUp.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!);
    expect(blocks.length).toBeGreaterThanOrEqual(2);
    expect(blocks.join("\n")).not.toMatch(/\bnpx sqlmend\b/);
    expect(blocks.join("\n")).toMatch(/node bin\/sqlmend\.js eval/);
  });
});
