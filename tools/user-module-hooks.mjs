// Node module hooks for a user's --node/--graph modules (registered by tools/import-module.ts, after tsx's): such a
// module may sit in any folder — with no package.json, under a CommonJS one, or an ESM one — and import `sqlmend`,
// LangGraph and zod. Those resolve to the copies sqlmend itself runs (one LangGraph in the process: its `Send` and
// `Command` checks hold), and a TypeScript module written with import/export loads as ESM wherever it sits (tsx
// would compile it as CommonJS under a CommonJS package, where top-level await and `import "sqlmend"` fail).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

let root = "";
let sourceMode = false;
let shared = new Set();

export function initialize(data) {
  root = data.root;
  sourceMode = data.sourceMode;
  shared = new Set(data.shared);
}

const isBare = (specifier) => !/^(\.|\/|file:|node:|data:|[a-zA-Z]:[\\/])/.test(specifier);
const packageName = (specifier) => (specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]);

/** sqlmend's own code in its package: the source folders, the build, the launcher, its tests and benches. */
const OWN = ["index.ts", "core", "state", "tools", "storage", "nodes", "graphs", "runner", "cli", "dist", "bin", "scripts", "test", "bench"];

/** A file of the user's: outside sqlmend's own code (a module beside a clone's runs counts) and any node_modules. */
function isUserFile(url) {
  if (!url?.startsWith("file:")) return false;
  const file = fileURLToPath(url);
  if (file.split(path.sep).includes("node_modules")) return false;
  if (!file.startsWith(root + path.sep)) return true;
  const first = path.relative(root, file).split(path.sep)[0];
  return !OWN.includes(first);
}

/** Source written as an ES module (import/export statements or top-level await), not CommonJS. */
function looksLikeEsm(url) {
  try {
    const text = fs.readFileSync(fileURLToPath(url), "utf8");
    return /^\s*(import|export)\s[^\n]*/m.test(text) || /^\s*await\s/m.test(text);
  } catch {
    return false;
  }
}

export async function resolve(specifier, context, nextResolve) {
  if (isUserFile(context.parentURL) && isBare(specifier)) {
    const name = packageName(specifier);
    const fromRoot = { ...context, parentURL: pathToFileURL(path.join(root, "package.json")).href };
    if (name === "sqlmend") {
      // The running copy: its sources when it runs from them (the compiled entry would be a second sqlmend).
      // As a file URL: a tsconfig's `paths` (tsx reads the user's) never maps it elsewhere.
      const sub = specifier.slice("sqlmend".length).replace(/^\//, "").replace(/\.[cm]?[tj]s$/, "");
      const file = sourceMode ? path.join(root, `${sub || "index"}.ts`) : path.join(root, "dist", `${sub || "index"}.js`);
      return nextResolve(pathToFileURL(file).href, context);
    }
    if (shared.has(name)) return nextResolve(specifier, fromRoot);
    try {
      return await nextResolve(specifier, context);
    } catch (error) {
      // A package the user's folder lacks, sqlmend may have (its dependencies are the user's to import).
      if (error?.code === "ERR_MODULE_NOT_FOUND") return nextResolve(specifier, fromRoot);
      throw error;
    }
  }
  const resolved = await nextResolve(specifier, context);
  // tsx takes a .ts file under a CommonJS package (or none) for CommonJS; one written as ESM is loaded as ESM.
  if (/^commonjs/.test(resolved.format ?? "") && /\.(ts|tsx|mts)$/.test(resolved.url) && isUserFile(resolved.url) && looksLikeEsm(resolved.url)) return { ...resolved, format: "module" };
  return resolved;
}
