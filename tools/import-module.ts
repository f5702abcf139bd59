import { fileURLToPath, pathToFileURL } from "node:url";

/** True when this code runs compiled (dist/), where plain node cannot load TypeScript by itself. */
const COMPILED = !import.meta.url.endsWith(".ts");
const TYPESCRIPT = /\.[cm]?tsx?$/i;
let typescript: Promise<void> | undefined;
let hooks: Promise<void> | undefined;
/** The package's root: two folders up when compiled (dist/tools/), one in the sources (tools/). */
const ROOT = fileURLToPath(new URL(COMPILED ? "../../" : "../", import.meta.url)).replace(/[\\/]$/, "");
/** Packages a user's module imports as sqlmend's own copies (one LangGraph, one zod in the process). */
const SHARED_PACKAGES = ["@langchain/langgraph", "@langchain/core", "@langchain/langgraph-checkpoint", "zod"];

/**
 * Imports a user's module by file path (`--node SLOT=./my.ts`). A TypeScript module first registers tsx's hooks, once
 * and only then, so runs without one never pay for them.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  if (TYPESCRIPT.test(file)) {
    typescript ??= (async () => {
      // A .ts module that is really CommonJS (require, module.exports) goes through tsx's CommonJS hook.
      (await import("tsx/cjs/api")).register();
      if (COMPILED) (await import("tsx/esm/api")).register(); // the sources run with it registered already
    })();
    await typescript;
  }
  // After tsx's (a TypeScript module registers tsx first), so they run before it: sqlmend, LangGraph and zod resolve
  // to sqlmend's own copies from a module in any folder, and a TypeScript module written as ESM loads as ESM under a
  // CommonJS package too.
  hooks ??= (async () => {
    const { register } = await import("node:module");
    register(new URL(`./user-module-hooks.mjs`, import.meta.url), { data: { root: ROOT, sourceMode: !COMPILED, shared: SHARED_PACKAGES } });
  })();
  await hooks;
  const namespace = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  // A module compiled to CommonJS arrives as { default: module.exports } with its ESM exports inside.
  const exports = namespace.default as { __esModule?: unknown } | undefined;
  return exports && typeof exports === "object" && exports.__esModule ? (exports as Record<string, unknown>) : namespace;
}
