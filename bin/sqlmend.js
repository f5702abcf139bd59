#!/usr/bin/env node
// Runs the TypeScript launcher directly (no build step): tsx compiles on load.
import { register } from "tsx/esm/api";

register();
// `sqlmend ... | head` closes the pipe early: end quietly rather than with a stack trace.
process.stdout.on("error", (error) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
