import { pathToFileURL } from "node:url";

/** True when this code runs compiled (dist/), where plain node cannot load TypeScript by itself. */
const COMPILED = !import.meta.url.endsWith(".ts");
const TYPESCRIPT = /\.[cm]?tsx?$/i;
let loader: Promise<void> | undefined;

/**
 * Imports a user's module by file path (`--node SLOT=./my.ts`). A TypeScript module under the compiled launcher first
 * registers tsx, once and only then, so plain JavaScript modules and runs without them never pay for it.
 */
export async function importModule(file: string): Promise<Record<string, unknown>> {
  if (COMPILED && TYPESCRIPT.test(file)) {
    loader ??= import("tsx/esm/api").then(({ register }) => {
      register();
    });
    await loader;
  }
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}
