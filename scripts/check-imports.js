#!/usr/bin/env node
// The import graph's rules (`node scripts/check-imports.js`; test/import-graph.test.ts runs it in `npm test`):
// 1. floors: a module imports only from its own top-level folder or one below it (FLOORS, bottom first);
// 2. folders: no circle between folders (a subfolder counts as a folder of its own: graphs ↔ graphs/manifests is one);
// 3. modules: no circle between modules, whatever the folders.
// Static, dynamic (`import("…")`) and type-only imports all count: a type import upward still ties a floor to the one above.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** Bottom first. `index.ts` (the library's entry) stands above them all. */
export const FLOORS = ["core", "state", "tools", "storage", "nodes", "graphs", "runner", "cli"];

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"'\n]+)\1/g;

/** Every relative import of every source file under `root`'s floors: [{ from, to }] as paths relative to `root`. */
export function importEdges(root) {
  const files = [];
  const walk = (rel) => {
    const full = path.join(root, rel);
    if (!fs.existsSync(full)) return;
    if (fs.statSync(full).isDirectory()) for (const name of fs.readdirSync(full).sort()) walk(path.join(rel, name));
    else if (/\.(ts|js|mjs)$/.test(rel) && !rel.endsWith(".d.ts")) files.push(rel);
  };
  for (const floor of [...FLOORS, "index.ts"]) walk(floor);
  const edges = [];
  for (const from of files) {
    const text = fs.readFileSync(path.join(root, from), "utf8").replace(/\/\*[\s\S]*?\*\/|(^|[^:"'`])\/\/.*$/gm, "$1");
    for (const match of text.matchAll(SPECIFIER)) {
      const to = path.normalize(path.join(path.dirname(from), match[2]));
      if (/\.(ts|js|mjs|cjs)$/.test(to)) edges.push({ from, to });
    }
  }
  return { files, edges };
}

const floorOf = (file) => (file === "index.ts" ? FLOORS.length : FLOORS.indexOf(file.split(path.sep)[0]));

/** Cycles in a directed graph (adjacency: Map<node, Set<node>>), each as its list of nodes: one per strongly connected component. */
function cycles(adjacency) {
  let counter = 0;
  const index = new Map(), low = new Map(), stack = [], onStack = new Set(), found = [];
  const visit = (v) => {
    index.set(v, counter); low.set(v, counter); counter++;
    stack.push(v); onStack.add(v);
    for (const w of adjacency.get(v) ?? []) {
      if (!index.has(w)) { visit(w); low.set(v, Math.min(low.get(v), low.get(w))); }
      else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) === index.get(v)) {
      const component = [];
      let w;
      do { w = stack.pop(); onStack.delete(w); component.push(w); } while (w !== v);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const v of adjacency.keys()) if (!index.has(v)) visit(v);
  return found;
}

/** One line per broken rule (empty when the graph keeps them all). */
export function importViolations(root) {
  const { edges } = importEdges(root);
  const problems = [];
  const folders = new Map();
  const modules = new Map();
  for (const { from, to } of edges) {
    if (floorOf(to) > floorOf(from)) problems.push(`upward: ${from} imports ${to} (${to.split(path.sep)[0]} is above ${from.split(path.sep)[0]})`);
    if (floorOf(to) < 0) problems.push(`outside the floors: ${from} imports ${to}`);
    const [a, b] = [path.dirname(from), path.dirname(to)];
    if (a !== b) (folders.get(a) ?? folders.set(a, new Set()).get(a)).add(b);
    (modules.get(from) ?? modules.set(from, new Set()).get(from)).add(to);
  }
  for (const circle of cycles(folders)) problems.push(`folders import each other: ${circle.join(" ↔ ")}`);
  for (const circle of cycles(modules)) problems.push(`modules import each other: ${circle.join(" ↔ ")}`);
  return problems;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const problems = importViolations(root);
  const { files, edges } = importEdges(root);
  for (const line of problems) console.log(line);
  console.log(`${files.length} modules, ${edges.length} imports, floors ${FLOORS.join(" < ")}: ${problems.length ? `${problems.length} problems` : "no upward import, no circle"}`);
  process.exit(problems.length ? 1 : 0);
}
