import { pathToFileURL } from "node:url";

/** True when this code runs compiled (dist/), where plain node cannot load TypeScript by itself. */
const COMPILED = !import.meta.url.endsWith(".ts");
const TYPESCRIPT = /\.[cm]?tsx?$/i;
let loader: Promise<void> | undefined;

/**
 * Imports a user's module by file path (`--node SLOT=./my.ts`). A TypeScript module first registers tsx's hooks, once
 * and only then, so runs without one never pay for them.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  if (TYPESCRIPT.test(file)) {
    loader ??= (async () => {
      // Outside a "type": "module" package Node takes a .ts file for CommonJS: tsx's CommonJS hook compiles it then.
      (await import("tsx/cjs/api")).register();
      if (COMPILED) (await import("tsx/esm/api")).register(); // the sources run with it registered already
    })();
    await loader;
  }
  const namespace = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
  // A module compiled to CommonJS arrives as { default: module.exports } with its ESM exports inside.
  const exports = namespace.default as { __esModule?: unknown } | undefined;
  return exports && typeof exports === "object" && exports.__esModule ? (exports as Record<string, unknown>) : namespace;
}
