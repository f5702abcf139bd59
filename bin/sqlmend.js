#!/usr/bin/env node
// Runs the TypeScript launcher directly (no build step): tsx compiles on load.
import { register } from "tsx/esm/api";

register();
const { main } = await import("../cli/main.ts");
process.exitCode = await main(process.argv.slice(2));
