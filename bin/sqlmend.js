#!/usr/bin/env node
// Runs the compiled launcher (dist/, built by `npm install` / `npm run build`) when it matches the sources, and the
// TypeScript sources through tsx otherwise (no build yet, or sources edited since): never stale code.
import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { distIsFresh } from "./freshness.js";

const root = fileURLToPath(new URL("..", import.meta.url));
let from = { dir: "../dist/", ext: "js" };
// SQLMEND_SOURCE=1 forces the sources (to compare, or to debug with TypeScript stack traces).
if (process.env.SQLMEND_SOURCE === "1" || !distIsFresh(root)) {
  if (process.env.SQLMEND_DEBUG) process.stderr.write("sqlmend: dist/ is missing or older than the sources; running the sources with tsx\n");
  const { register } = await import("tsx/esm/api");
  register();
  from = { dir: "../", ext: "ts" };
}
// A command that runs SQL has its worker processes started first: they boot while the launcher's modules load. An
// early start only: should it fail, main() starts them as it loads the command (and reports what is wrong).
const [command] = process.argv.slice(2);
if (command && !process.argv.includes("--help") && !process.argv.includes("-h")) {
  try {
    const { SQL_WORKERS } = await import(`${from.dir}cli/commands/sql-workers.${from.ext}`);
    const count = Object.hasOwn(SQL_WORKERS, command) ? SQL_WORKERS[command] : undefined;
    if (count !== undefined) (await import(`${from.dir}tools/sqlite/executor.${from.ext}`)).prestartWorkers(count === "cpus" ? availableParallelism() : count);
  } catch {
    // main() starts them
  }
}
const entry = `${from.dir}cli/main.${from.ext}`;
// `sqlmend ... | head` closes the pipe early: end quietly rather than with a stack trace.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});
// The launcher process's heap kept near its live data over thousands of questions (peak RSS of a Spider train run):
// set here, in the process entry, never by main() called in a host's process (a test runner, a script).
(await import(`${from.dir}cli/shared/heap.${from.ext}`)).keepLauncherHeapSmall();
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
