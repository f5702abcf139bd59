import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { lazyCrypto } from "./hash.ts";

/** The package's root folder (tools/ in the sources, dist/tools/ when compiled), or undefined when not found. */
function packageRoot(): string | undefined {
  const file = [new URL("../package.json", import.meta.url), new URL("../../package.json", import.meta.url)].find((f) => fs.existsSync(f));
  return file ? path.dirname(fileURLToPath(file)) : undefined;
}

/** The running sqlmend's package root, and whether it runs from its sources (then `sqlmend` is its index.ts). */
export function sqlmendPackage(): { root: string; sources: boolean } {
  const sources = fileURLToPath(import.meta.url).endsWith(".ts");
  return { root: fileURLToPath(new URL(sources ? "../" : "../../", import.meta.url)).replace(/[\\/]$/, ""), sources };
}

let cached: string | undefined;
/** The version in package.json, for reports. */
export function projectVersion(): string {
  if (!cached) {
    try {
      cached = (JSON.parse(fs.readFileSync(path.join(packageRoot()!, "package.json"), "utf8")) as { version: string }).version;
    } catch {
      cached = "unknown";
    }
  }
  return cached;
}

/**
 * What sqlmend's own code is: the package version and a sha256 over its sources (every file under the source roots
 * of bin/freshness.js), or, in an installed package without sources, the digest its build recorded. run.json records
 * it and `--resume` refuses a run started by other code (a prompt edited in between mixes two methods in one run).
 */
export interface CodeIdentity {
  version: string;
  /** sha256 of the sources (`of: "sources"`), or the digest the build recorded or of dist/ itself (`of: "build"`). */
  sha256: string;
  of: "sources" | "build";
  /** `of: "sources"`: each source file's sha256 (16 hex digits) by path, so a refused resume names what changed. */
  files?: Record<string, string>;
}

const identities = new Map<string, Promise<CodeIdentity>>();

/** This process's code identity (`root`: another copy of the package, for tests), computed once per root (~5-35 ms). */
export function codeIdentity(root = packageRoot()): Promise<CodeIdentity> {
  const key = root ?? "";
  let identity = identities.get(key);
  if (!identity) identities.set(key, (identity = computeIdentity(root)));
  return identity;
}

async function computeIdentity(root: string | undefined): Promise<CodeIdentity> {
  if (root === undefined) return { version: projectVersion(), sha256: "unknown", of: "build" };
  const version = (() => {
    try {
      return (JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")) as { version: string }).version;
    } catch {
      return "unknown";
    }
  })();
  // bin/ ships with the package, so the digest is the same code in the sources and in dist/ (whose layout differs).
  const { sourceDigest, sourceDigests, SOURCE_ROOTS } = (await import(pathToFileURL(path.join(root, "bin", "freshness.js")).href)) as {
    sourceDigest: (root: string, roots?: string[]) => string | undefined;
    sourceDigests?: (root: string, roots?: string[]) => { sha256: string; files: Record<string, string> } | undefined;
    SOURCE_ROOTS: string[];
  };
  const sources = sourceDigests ? sourceDigests(root, SOURCE_ROOTS) : undefined;
  if (sources) return { version, sha256: sources.sha256, of: "sources", files: sources.files };
  // An installed package: the digest of the sources it was built from, else of the build itself.
  try {
    const recorded = (JSON.parse(fs.readFileSync(path.join(root, "dist", ".sources.json"), "utf8")) as { sha256?: unknown }).sha256;
    if (typeof recorded === "string") return { version, sha256: recorded, of: "build" };
  } catch {
    // no record: hash dist/
  }
  return { version, sha256: sourceDigest(root, ["dist"]) ?? "unknown", of: "build" };
}

/** The source files that differ between two code identities (edited, added or removed), when both list their files. */
export function changedSourceFiles(before: CodeIdentity | undefined | null, now: CodeIdentity): string[] {
  if (!before?.files || !now.files) return [];
  const names = new Set([...Object.keys(before.files), ...Object.keys(now.files)]);
  return [...names].sort().filter((name) => before.files![name] !== now.files![name]).map((name) => (!(name in before.files!) ? `${name} (added)` : !(name in now.files!) ? `${name} (removed)` : name));
}

/** Whether two code identities are the same code (version and digest; the per-file list is only for messages). */
export const sameCode = (before: CodeIdentity | undefined | null, now: CodeIdentity): boolean => before?.sha256 === now.sha256 && before?.version === now.version;

/** How a refused resume says what changed: "nodes/r3/prompts.ts; 0.1.0, sources sha256 …; now 0.1.0, sources sha256 …". */
export function codeChange(before: CodeIdentity | undefined | null, now: CodeIdentity): string {
  const files = changedSourceFiles(before, now);
  const which = files.length ? `${files.slice(0, 3).join(", ")}${files.length > 3 ? `, … ${files.length} files` : ""}; ` : "";
  return `${which}${describeCode(before)}; now ${describeCode(now)}`;
}

/** "0.1.0, sources sha256 1a2b3c4d5e6f7081": how messages and reports name a code identity. */
export function describeCode(code: CodeIdentity | undefined | null): string {
  if (!code) return "no recorded code identity (a run started before sqlmend recorded one)";
  return `${code.version}, ${code.of} sha256 ${code.sha256.slice(0, 16)}`;
}

/** What a user module's identity records beyond its sha256: every local file of its import closure and the packages it imports. */
export interface ModuleIdentity {
  path: string;
  /** sha256 over the closure: each local file's path (relative to the module's folder) and bytes, in sorted order. */
  sha256: string;
  /** Each local file of the closure, relative to the module's folder, and the sha256 of its bytes. */
  files?: Record<string, string>;
  /** Packages the closure imports, by name, and the version found for it (`unresolved` when none was). */
  packages?: Record<string, string>;
}

// Static imports and re-exports, `import("…")` with a literal and `require("…")`; comments are left in (a commented
// import only adds a file to the closure, never drops one).
const IMPORT_SPECIFIERS = /(?:\bimport\s+(?:type\s+)?(?:[\w*${}\s,]+?\s+from\s+)?|\bexport\s+(?:type\s+)?(?:\*(?:\s+as\s+\w+)?|\{[^}]*\})\s+from\s+|\bimport\s*\(\s*|\brequire\s*\(\s*)["']([^"'\n]+)["']/g;
const SOURCE_EXTENSIONS = ["", ".ts", ".mts", ".cts", ".tsx", ".js", ".mjs", ".cjs", ".json"];

/** The local file a relative specifier names, as Node and tsx resolve it (`./x.js` may be `./x.ts`); undefined if none. */
function resolveLocal(from: string, specifier: string): string | undefined {
  const base = path.resolve(path.dirname(from), specifier);
  const candidates = [
    ...SOURCE_EXTENSIONS.map((ext) => base + ext),
    ...(/\.[cm]?jsx?$/.test(base) ? [".ts", ".mts", ".cts", ".tsx"].map((ext) => base.replace(/\.[cm]?jsx?$/, ext)) : []),
    ...["index.ts", "index.mts", "index.js", "index.mjs"].map((name) => path.join(base, name)),
  ];
  return candidates.find((file) => {
    try {
      return fs.statSync(file).isFile();
    } catch {
      return false;
    }
  });
}

/** A package specifier's name: `@scope/name` or `name`, without a subpath; undefined for node: builtins. */
function packageName(specifier: string): string | undefined {
  if (specifier.startsWith("node:")) return undefined;
  const parts = specifier.split("/");
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/** The version of a package as the module would load it (its nearest node_modules, else sqlmend's own copy). */
function packageVersion(name: string, from: string): string {
  for (let dir = path.dirname(from); ; dir = path.dirname(dir)) {
    const manifest = path.join(dir, "node_modules", name, "package.json");
    try {
      return String((JSON.parse(fs.readFileSync(manifest, "utf8")) as { version?: unknown }).version ?? "unknown");
    } catch {
      // not here: the folder above
    }
    if (path.dirname(dir) === dir) break;
  }
  const root = packageRoot();
  if (root && name === "sqlmend") return projectVersion();
  if (root && root !== path.dirname(from)) {
    try {
      return String((JSON.parse(fs.readFileSync(path.join(root, "node_modules", name, "package.json"), "utf8")) as { version?: unknown }).version ?? "unknown");
    } catch {
      // not one of sqlmend's either
    }
  }
  return "unresolved";
}

/**
 * A module a run loads from the user (`--node SLOT=MODULE`, and `--graph FILE` the same way) as run.json records it:
 * where it was and a sha256 over its whole local import closure — the module and every file it imports by a
 * relative path, followed transitively (prompts kept beside a node are part of the node) — with each file's own hash
 * (so a refused `--resume` names the file that changed) and the packages it imports by name and version.
 * `--resume` compares the hash, not the path, so the module or the run folder may move but not change.
 */
export function moduleIdentity(file: string): ModuleIdentity {
  const root = path.dirname(file);
  const files: Record<string, string> = {};
  const packages: Record<string, string> = {};
  const pending = [file];
  const seen = new Set<string>();
  while (pending.length) {
    const current = pending.pop()!;
    if (seen.has(current)) continue;
    seen.add(current);
    const bytes = fs.readFileSync(current);
    files[path.relative(root, current).split(path.sep).join("/")] = lazyCrypto().createHash("sha256").update(bytes).digest("hex");
    if (current.endsWith(".json")) continue;
    for (const match of bytes.toString("utf8").matchAll(IMPORT_SPECIFIERS)) {
      const specifier = match[1]!;
      if (specifier.startsWith(".") || specifier.startsWith("/")) {
        const local = resolveLocal(current, specifier);
        if (local) pending.push(local);
        continue;
      }
      const name = packageName(specifier);
      if (name && !(name in packages)) packages[name] = packageVersion(name, current);
    }
  }
  const hash = lazyCrypto().createHash("sha256");
  for (const rel of Object.keys(files).sort()) hash.update(`${rel}\0${files[rel]}\0`);
  // A single file keeps its plain sha256 (what `sha256sum` prints, and what runs before closures recorded).
  const sha256 = Object.keys(files).length === 1 ? Object.values(files)[0]! : hash.digest("hex");
  const sortedPackages = Object.fromEntries(Object.entries(packages).sort(([a], [b]) => a.localeCompare(b)));
  return { path: file, sha256, ...(Object.keys(files).length > 1 ? { files } : {}), ...(Object.keys(packages).length ? { packages: sortedPackages } : {}) };
}
