#!/usr/bin/env node
// graphs/served.ts and langgraph.json, written from the registry (graphs/registry.ts), the one place a graph is
// registered: `npm run served` writes them; `npm run served -- --check` (and test/served-graphs.test.ts) says whether
// they are current. LangGraph's server loads a graph as `file:export`, so served.ts needs one named export per graph.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const SERVED_MODULE = "graphs/served.ts";
export const LANGGRAPH_JSON = "langgraph.json";

/** A graph's export in served.ts: its name in camelCase (`ts-sql-refine` → `tsSqlRefine`). */
export function exportNameOf(graph) {
  const name = graph.replace(/-(\w)/g, (_, c) => c.toUpperCase());
  if (!/^[A-Za-z_$][\w$]*$/.test(name)) throw new Error(`graph '${graph}' makes no export name (${name}): name graphs with letters, digits and dashes, a letter first`);
  return name;
}

export function servedModuleText(names) {
  return [
    "// Written by `npm run served` (scripts/served-graphs.js) from graphs/registry.ts: one factory per registered graph,",
    "// as langgraph.json names them. Do not edit: register a graph in graphs/registry.ts and run `npm run served`.",
    'import { servedGraph } from "./serve.ts";',
    "",
    ...names.map((name) => `export const ${exportNameOf(name)} = servedGraph(${JSON.stringify(name)});`),
    "",
  ].join("\n");
}

/** langgraph.json with its `graphs` from the registry; its other keys (node_version, dependencies, ...) kept. */
export function langgraphJsonText(names, current = {}) {
  const graphs = Object.fromEntries(names.map((name) => [name, `./${SERVED_MODULE}:${exportNameOf(name)}`]));
  return `${JSON.stringify({ node_version: "20", dependencies: ["."], ...current, graphs }, null, 2)}\n`;
}

/** Both files as the registry's graph names make them, beside what `root` holds: [{ file, want, have }]. */
export function servedFiles(names, root = ROOT) {
  if (new Set(names.map(exportNameOf)).size !== names.length) throw new Error(`two graphs make the same export name: ${names.join(", ")}`);
  const read = (file) => (fs.existsSync(path.join(root, file)) ? fs.readFileSync(path.join(root, file), "utf8") : "");
  const json = read(LANGGRAPH_JSON);
  return [
    { file: SERVED_MODULE, want: servedModuleText(names), have: read(SERVED_MODULE) },
    { file: LANGGRAPH_JSON, want: langgraphJsonText(names, json ? JSON.parse(json) : {}), have: json },
  ];
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { register } = await import("tsx/esm/api");
  register();
  const { graphManifests } = await import(pathToFileURL(path.join(ROOT, "graphs", "registry.ts")).href);
  const stale = servedFiles(graphManifests.map((m) => m.name)).filter((f) => f.want !== f.have);
  if (process.argv.includes("--check")) {
    for (const f of stale) process.stderr.write(`${f.file} is not current with graphs/registry.ts: run \`npm run served\`\n`);
    process.exitCode = stale.length ? 1 : 0;
  } else {
    for (const f of stale) fs.writeFileSync(path.join(ROOT, f.file), f.want);
    process.stdout.write(stale.length ? `wrote ${stale.map((f) => f.file).join(" and ")} from graphs/registry.ts\n` : "graphs/served.ts and langgraph.json are current\n");
  }
}
