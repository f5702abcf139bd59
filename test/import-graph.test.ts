/**
 * The import graph keeps its floors (core < state < tools < storage < nodes < graphs < runner < cli) and has no circle
 * between folders or modules: `node scripts/check-imports.js` prints the same check.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FLOORS, importViolations } from "../scripts/check-imports.js";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const dirs: string[] = [];
afterAll(() => dirs.forEach(removeTempDir));

function tree(files: Record<string, string>): string {
  const root = makeTempDir();
  dirs.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

describe("the import graph", () => {
  it("has no upward import and no circle between folders or modules", () => {
    expect(importViolations(ROOT)).toEqual([]);
  });

  it("lists every top-level source folder as a floor", () => {
    const folders = fs.readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory() && !/^(\.|node_modules|dist|test|bench|bin|scripts|examples|docs|runs$)/.test(d.name));
    const withSources = folders.filter((d) => fs.readdirSync(path.join(ROOT, d.name), { recursive: true }).some((f) => /\.(ts|js)$/.test(String(f))));
    expect(withSources.map((d) => d.name).sort()).toEqual([...FLOORS].sort());
  });

  it("catches an upward import (static, dynamic or type-only), a folder circle and a module circle", () => {
    const root = tree({
      "nodes/a.ts": 'import type { X } from "../graphs/x.ts";\nexport const a = 1;\n',
      "tools/b.ts": 'export const load = () => import("../nodes/a.ts");\n',
      "graphs/x.ts": 'import { y } from "./manifests/y.ts";\nexport type X = number;\nexport const x = y;\n',
      "graphs/manifests/y.ts": 'import { x } from "../x.ts";\nexport const y = 1; export const z = x;\n',
      // A comment that names an import is not one.
      "state/c.ts": '// import { a } from "../nodes/a.ts";\nexport const c = 1;\n',
    });
    const problems: string[] = importViolations(root);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^upward: nodes\/a\.ts imports graphs\/x\.ts/),
        expect.stringMatching(/^upward: tools\/b\.ts imports nodes\/a\.ts/),
        "folders import each other: graphs ↔ graphs/manifests",
        "modules import each other: graphs/manifests/y.ts ↔ graphs/x.ts",
      ]),
    );
    expect(problems.filter((p) => p.includes("state/c.ts"))).toEqual([]);
    expect(problems).toHaveLength(4);
  });
});
