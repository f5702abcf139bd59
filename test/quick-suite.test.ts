/**
 * `npm run test:quick` (vitest.quick.config.ts) leaves out the slow files but no part of the code: every source folder
 * has a test in the quick set that imports one of its modules, itself, through test/support, or through the module it
 * imports (the launcher's `cli/main.ts` brings `cli/commands/`).
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { importEdges } from "../scripts/check-imports.js";
import { SLOW_TESTS } from "../vitest.quick.config.ts";
import { SLOWEST_SECONDS } from "../vitest.config.ts";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])(\.{1,2}\/[^"'\n]+)\1/g;

/** A glob of SLOW_TESTS as a test: `**` any folders, `*` any name part. */
const slow = (file: string) => SLOW_TESTS.some((glob) => new RegExp(`^${glob.replace(/\./g, "\\.").replace(/\*\*\//g, "(.*/)?").replace(/\*/g, "[^/]*")}$`).test(file));

describe("the quick suite", () => {
  it("has, for every source folder, a test that imports one of its modules", () => {
    const tests = fs.readdirSync(path.join(ROOT, "test")).filter((f) => f.endsWith(".test.ts")).map((f) => `test/${f}`);
    const quick = tests.filter((t) => !slow(t));
    expect(quick.length).toBeLessThan(tests.length);
    const { files, edges } = importEdges(ROOT) as { files: string[]; edges: { from: string; to: string }[] };
    const importsOf = (file: string) => [...fs.readFileSync(path.join(ROOT, file), "utf8").matchAll(SPECIFIER)].map((m) => path.normalize(path.join(path.dirname(file), m[2]!)));
    const modules = new Set<string>();
    const visit = (file: string) => {
      for (const to of importsOf(file)) {
        if (to.startsWith("test/support/")) {
          if (!modules.has(to)) modules.add(to), visit(to);
        } else modules.add(to);
      }
    };
    for (const test of quick) visit(test);
    for (const { from, to } of edges) if (modules.has(from)) modules.add(to);
    const reached = new Set([...modules].map((m) => path.dirname(m)));
    const folders = [...new Set(files.map((f) => path.dirname(f)).filter((d) => d !== "."))].sort();
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((d) => !reached.has(d))).toEqual([]);
  });

  it("the files npm test starts first (vitest.config.ts SLOWEST_SECONDS) exist under those names: a renamed one would silently lose its place", () => {
    const named = Object.keys(SLOWEST_SECONDS);
    expect(named.length).toBeGreaterThan(5);
    expect(named.filter((file) => !fs.existsSync(path.join(ROOT, file)))).toEqual([]);
  });
});
