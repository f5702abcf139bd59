#!/usr/bin/env node
// Compiles the launcher and library to JavaScript in dist/ (npm's `prepare`, so after `npm install` / `npm ci`),
// then records every source file's and folder's mtime in dist/.sources.json: bin/sqlmend.js runs dist/ only while
// that record still matches the sources, and otherwise runs the TypeScript sources through tsx.
// The build is written into a folder of its own and put in place by renames, so a command running meanwhile never
// sees a half-written dist/. `--if-stale` (prepare) builds only when dist/ does not match the sources: a second
// `npm install`, or npx installing the clone into its cache, builds nothing again.
// A failed build leaves dist/ as it was and does not fail the install: the launcher runs the sources while it is stale.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { distIsFresh, SOURCE_ROOTS, sourceDigest, sourceSnapshot } from "../bin/freshness.js";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const DIST = path.join(ROOT, "dist");
// Where this build is written, then renamed to dist/ (ignored by git as dist-*/).
const FRESH = path.join(ROOT, `dist-build-${process.pid}`);

if (process.argv.includes("--if-stale") && distIsFresh(ROOT)) {
  console.log("sqlmend build: dist/ matches the sources; nothing to build");
  process.exit(0);
}

let tsc;
try {
  tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
} catch {
  console.warn("sqlmend build: typescript is not installed; the launcher will run the TypeScript sources (slower start).");
  process.exit(0);
}
// Taken before compiling, so a file edited during the build makes the output stale.
const snapshot = sourceSnapshot(ROOT, SOURCE_ROOTS);
// The code identity runs record (tools/version.ts), for an installed package that ships no sources.
const sha256 = sourceDigest(ROOT, SOURCE_ROOTS);
fs.rmSync(FRESH, { recursive: true, force: true });
const result = spawnSync(process.execPath, [tsc, "-p", path.join(ROOT, "tsconfig.build.json"), "--outDir", FRESH], { cwd: ROOT, stdio: "inherit" });
if (result.status !== 0) {
  fs.rmSync(FRESH, { recursive: true, force: true });
  console.warn("sqlmend build: tsc failed; dist/ left as it was (the launcher runs the TypeScript sources while it is stale).");
  process.exit(0);
}
// Files the modules read beside themselves (new URL("./x.txt", import.meta.url)) are copied next to the compiled ones.
for (const rel of Object.keys(snapshot.entries)) {
  const from = path.join(ROOT, rel);
  if (/\.(ts|js)$/.test(rel) || !fs.statSync(from).isFile()) continue;
  fs.mkdirSync(path.dirname(path.join(FRESH, rel)), { recursive: true });
  fs.copyFileSync(from, path.join(FRESH, rel));
}
// The SQL worker process as one CommonJS file (tools/sqlite/executor.ts prefers it): a worker starts ~15 ms of CPU
// faster than from ES modules, and scoring starts several. Without esbuild (tsx brings it) workers load worker.js.
try {
  createRequire(import.meta.url)("esbuild").buildSync({
    entryPoints: [path.join(ROOT, "tools", "sqlite", "worker.js")],
    outfile: path.join(FRESH, "tools", "sqlite", "worker.cjs"),
    bundle: true,
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["better-sqlite3"],
    define: { "import.meta.url": "__worker_url" },
    banner: { js: 'const __worker_url = require("node:url").pathToFileURL(__filename).href;' },
    logLevel: "warning",
  });
} catch (error) {
  console.warn(`sqlmend build: SQL worker not bundled (${String(error?.message ?? error).split("\n")[0]}); workers load worker.js`);
}
fs.writeFileSync(path.join(FRESH, ".sources.json"), JSON.stringify({ ...snapshot, sha256 }));
// The old build steps aside and the new one takes its name: two renames, never a dist/ with some files missing.
const old = path.join(ROOT, `dist-old-${process.pid}`);
if (fs.existsSync(DIST)) fs.renameSync(DIST, old);
fs.renameSync(FRESH, DIST);
fs.rmSync(old, { recursive: true, force: true });
