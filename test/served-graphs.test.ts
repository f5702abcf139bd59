/**
 * One registry: a graph is registered once, in graphs/registry.ts. The library's specs load from it, and
 * graphs/served.ts (one export per graph, as LangGraph's server loads `file:export`) and langgraph.json are written
 * from it by `npm run served`: these tests fail while a registered graph is not served, or langgraph.json names a graph
 * the registry lacks.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { graphSpecs } from "../graphs/index.ts";
import { graphManifests } from "../graphs/registry.ts";
import * as served from "../graphs/served.ts";
import { exportNameOf, LANGGRAPH_JSON, SERVED_MODULE, servedFiles } from "../scripts/served-graphs.js";

const ROOT = path.resolve(import.meta.dirname, "..");
const registered = graphManifests.map((m) => m.name);
const langgraph = JSON.parse(fs.readFileSync(path.join(ROOT, LANGGRAPH_JSON), "utf8")) as { graphs: Record<string, string> };

describe("one registry", () => {
  it("serves every registered graph, and langgraph.json names no graph the registry lacks", () => {
    const inJson = Object.keys(langgraph.graphs);
    expect(registered.filter((name) => !inJson.includes(name)), "registered but not in langgraph.json (run `npm run served`)").toEqual([]);
    expect(inJson.filter((name) => !registered.includes(name)), "in langgraph.json but not registered").toEqual([]);
    // Each entry names a factory served.ts exports, and served.ts exports nothing else.
    for (const [name, entry] of Object.entries(langgraph.graphs)) {
      const [file, exported] = entry.split(":");
      expect(path.normalize(file!)).toBe(SERVED_MODULE);
      expect(typeof (served as Record<string, unknown>)[exported!], `${name}: ${entry}`).toBe("function");
    }
    expect(Object.keys(served).sort()).toEqual(registered.map(exportNameOf).sort());
  });

  it("graphs/served.ts and langgraph.json are as `npm run served` writes them from the registry", () => {
    for (const { file, want, have } of servedFiles(registered, ROOT)) expect(have, `${file} is not current with graphs/registry.ts: run \`npm run served\``).toBe(want);
  });

  it("a graph added to the registry and not yet served shows in both files", () => {
    const stale = servedFiles([...registered, "my-method"], ROOT).filter((f) => f.want !== f.have);
    expect(stale.map((f) => f.file)).toEqual([SERVED_MODULE, LANGGRAPH_JSON]);
    expect(stale[0]!.want).toContain('export const myMethod = servedGraph("my-method");');
    expect(JSON.parse(stale[1]!.want).graphs["my-method"]).toBe("./graphs/served.ts:myMethod");
  });

  it("`npm run served -- --check` passes on the tree, and the library's specs are the registry's, in its order", () => {
    execFileSync(process.execPath, [path.join(ROOT, "scripts", "served-graphs.js"), "--check"], { cwd: ROOT, encoding: "utf8", timeout: 60_000 });
    expect(graphSpecs.map((spec) => spec.name)).toEqual(registered);
  }, 60_000);
});
