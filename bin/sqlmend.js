#!/usr/bin/env node
// Runs the compiled launcher (dist/, built by `npm install` / `npm run build`) when it matches the sources, and the
// TypeScript sources through tsx otherwise (no build yet, or sources edited since): never stale code.
import { fileURLToPath } from "node:url";
import { distIsFresh } from "./freshness.js";

const root = fileURLToPath(new URL("..", import.meta.url));
let entry = "../dist/cli/main.js";
// SQLMEND_SOURCE=1 forces the sources (to compare, or to debug with TypeScript stack traces).
if (process.env.SQLMEND_SOURCE === "1" || !distIsFresh(root)) {
  if (process.env.SQLMEND_DEBUG) process.stderr.write("sqlmend: dist/ is missing or older than the sources; running the sources with tsx\n");
  const { register } = await import("tsx/esm/api");
  register();
  entry = "../cli/main.ts";
}
// `sqlmend ... | head` closes the pipe early: end quietly rather than with a stack trace.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});
const { main } = await import(entry);
process.exitCode = await main(process.argv.slice(2));
