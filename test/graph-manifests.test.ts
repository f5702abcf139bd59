import { describe, expect, it } from "vitest";
import { graphSpecs } from "../graphs/index.ts";
import { graphManifests } from "../graphs/registry.ts";
import type { NodeDeps } from "../nodes/types.ts";

// Building only wires nodes: deps that refuse to be used prove no factory calls a model or runs SQL at build time.
const inertDeps: NodeDeps = {
  models: {
    forRole() {
      throw new Error("no model at build time");
    },
    limiter: undefined as never,
    structuredMethodCache: new Map(),
    describe: () => ({}),
  },
  executor: {
    run() {
      throw new Error("no SQL at build time");
    },
    close: async () => {},
  },
};

describe("graph manifests", () => {
  it("list the registry's graphs in its order", () => {
    expect(graphManifests.map((m) => m.name)).toEqual(graphSpecs.map((s) => s.name));
  });

  for (const manifest of graphManifests) {
    it(`${manifest.name}: the manifest is what its built graph has (fields, slots ↔ nodes)`, async () => {
      const spec = await manifest.load();
      expect(graphSpecs).toContain(spec);
      expect(spec.name).toBe(manifest.name);
      expect(spec.summary).toBe(manifest.summary);
      expect(spec.kind).toBe(manifest.kind);
      expect(spec.options).toBe(manifest.options);
      expect(spec.needsExamples).toBe(manifest.needsExamples);
      expect(spec.runBy).toBe(manifest.runBy);
      expect(Object.keys(spec.slots)).toEqual(Object.keys(manifest.slots));
      for (const [slot, { summary }] of Object.entries(manifest.slots)) {
        expect(spec.slots[slot]!.summary).toBe(summary);
        expect(typeof spec.slots[slot]!.factory).toBe("function");
      }
      // Some nodes exist only under an option (TS-SQL's `sample`, Memo-SQL without `link`): every build's nodes are
      // slots, and over the defaults, each boolean option turned on and each other choice, every slot is a node.
      const variants: Record<string, unknown>[] = [
        {},
        ...Object.entries(manifest.options ?? {}).flatMap(([key, d]): Record<string, unknown>[] =>
          d.type === "boolean" ? [{ [key]: true }] : d.type === "choice" ? d.choices.filter((c) => c !== d.default).map((c) => ({ [key]: c })) : [],
        ),
      ];
      const seen = new Set<string>();
      for (const options of variants) {
        const nodes = Object.keys(spec.build(inertDeps, options).nodes).filter((n) => n !== "__start__");
        for (const node of nodes) {
          expect(manifest.slots, `${manifest.name} ${JSON.stringify(options)}: node '${node}'`).toHaveProperty([node]);
          seen.add(node);
        }
      }
      expect([...seen].sort()).toEqual(Object.keys(manifest.slots).sort());
      // A generator writes the first SQL; a corrector starts from the given one and has no slot that writes from scratch.
      if (manifest.kind === "corrector") expect(Object.keys(manifest.slots)).not.toContain("generate");
    });
  }
});
