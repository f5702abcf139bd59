// Whether dist/ was compiled from the sources as they are now (plain JS: bin/sqlmend.js uses it before any loader).
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";

/** What tsconfig.build.json compiles (files and folders, relative to the package root). */
export const SOURCE_ROOTS = ["index.ts", "core", "state", "tools", "storage", "nodes", "graphs", "runner", "cli"];

/**
 * mtimes of every file and folder under the roots. A folder's mtime changes when a file in it is added, removed or
 * renamed, so comparing folders and files catches every edit without reading any content.
 */
export function sourceSnapshot(root, roots = SOURCE_ROOTS) {
  const entries = {};
  walkSources(root, roots, (rel, stat) => {
    entries[rel] = stat.mtimeMs;
  });
  return { roots, entries };
}

/** Every file and folder under the roots, in sorted order, with its stat: what the snapshot and the digest read. */
function walkSources(root, roots, visitEntry) {
  const visit = (rel) => {
    const full = path.join(root, rel);
    let stat;
    try {
      stat = fs.statSync(full);
    } catch {
      return;
    }
    visitEntry(rel, stat, full);
    if (stat.isDirectory()) for (const name of fs.readdirSync(full).sort()) visit(path.join(rel, name));
  };
  for (const rel of roots) visit(rel);
}

/** True when dist/.sources.json exists and every file and folder it lists still has its recorded mtime. */
export function distIsFresh(root) {
  let recorded;
  try {
    recorded = JSON.parse(fs.readFileSync(path.join(root, "dist", ".sources.json"), "utf8"));
  } catch {
    return false;
  }
  // An installed package ships dist/ without the sources (package.json "files"): there is nothing to be stale against.
  if (!(recorded.roots ?? SOURCE_ROOTS).some((rel) => fs.existsSync(path.join(root, rel)))) return true;
  for (const [rel, mtimeMs] of Object.entries(recorded.entries ?? {})) {
    let stat;
    try {
      stat = fs.statSync(path.join(root, rel));
    } catch {
      return false;
    }
    if (stat.mtimeMs !== mtimeMs) return false;
  }
  // A root that did not exist at build time and exists now (or the reverse) changes the set.
  for (const rel of recorded.roots ?? []) if (fs.existsSync(path.join(root, rel)) !== rel in recorded.entries) return false;
  return Object.keys(recorded.entries ?? {}).length > 0;
}

/**
 * sha256 of every file under the roots (relative path and bytes, in sorted order): sqlmend's code identity, which a
 * run records so that `--resume` refuses code edited since (tools/version.ts). ~2 MB of reading; the build records it
 * in dist/.sources.json for an installed package, which ships no sources.
 */
export function sourceDigest(root, roots = SOURCE_ROOTS) {
  return sourceDigests(root, roots)?.sha256;
}

/**
 * `sourceDigest` and, in the same pass, each file's own sha256 (its first 16 hex digits, by relative path): what a
 * refused `--resume` names as the files that changed.
 */
export function sourceDigests(root, roots = SOURCE_ROOTS) {
  // node:crypto loaded here, not at start-up: every launch imports this file.
  const crypto = createRequire(import.meta.url)("node:crypto");
  const hash = crypto.createHash("sha256");
  const files = {};
  walkSources(root, roots, (rel, stat, full) => {
    if (stat.isDirectory()) return;
    // Forward slashes: the same sources give the same digest on every system.
    const name = rel.split(path.sep).join("/");
    const bytes = fs.readFileSync(full);
    hash.update(`${name}\0`);
    hash.update(bytes);
    hash.update("\0");
    files[name] = crypto.createHash("sha256").update(bytes).digest("hex").slice(0, 16);
  });
  return Object.keys(files).length ? { sha256: hash.digest("hex"), files } : undefined;
}
