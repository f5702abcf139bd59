import fs from "node:fs";
import { describe, expect, it } from "vitest";
import { graphSpecs } from "../graphs/index.ts";
import { graphManifests } from "../graphs/registry.ts";
import { checkedNode } from "../graphs/spec.ts";
import { inertDeps } from "../graphs/inert-deps.ts";
import { SLOT_REFERENCE_FILE, SLOT_TYPES_FILE, slotReference, slotTypeChecks } from "../scripts/slot-reference.ts";

/**
 * The slots whose default node calls a chat model (read off the nodes: `callModel`, `callStructured`, `writeSqlStep`):
 * each declares its `role`, and no other slot does.
 */
const MODEL_SLOTS: Record<string, string[]> = {
  baseline: ["link", "generate", "fix"],
  repair: ["fix"],
  "as-given": [],
  magic: ["correct"],
  "magic-feedback": ["feedback", "correct", "reviseFeedback", "reviseCorrection", "judge"],
  "magic-guideline": ["merge"],
  r3: ["write", "debug", "persona", "review", "revise"],
  "r3-review": ["debug", "persona", "review", "revise"],
  "memo-sql": ["link", "decompose", "act", "reflect", "revise", "write", "critic", "refine"],
  "memo-refine": ["link", "critic", "refine"],
  "ts-sql": ["link", "generate", "data", "coder", "vote", "revise"],
  "ts-sql-refine": ["link", "data", "coder", "vote", "revise"],
  "self-debugging": ["explain", "debug"],
  "self-consistency": ["sample"],
  "multiple-prompt": ["sample"],
};

// Building only wires nodes: deps that refuse to be used prove no factory calls a model or runs SQL at build time.
const buildOnly = inertDeps("building a graph");

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
        const nodes = Object.keys(spec.build(buildOnly, options).nodes).filter((n) => n !== "__start__");
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

  it("every slot declares what it reads and writes, and its role exactly when its node calls a model", () => {
    expect(Object.keys(MODEL_SLOTS).sort()).toEqual(graphManifests.map((m) => m.name).sort());
    for (const manifest of graphManifests) {
      expect(manifest.stateType, `${manifest.name}: stateType`).toBeDefined();
      for (const [slot, info] of Object.entries(manifest.slots)) {
        const where = `${manifest.name} ${slot}`;
        expect(info.reads?.length, `${where}: reads`).toBeGreaterThan(0);
        expect(info.writes, `${where}: writes`).toBeDefined();
        expect(Boolean(info.role), `${where}: role`).toBe(MODEL_SLOTS[manifest.name]!.includes(slot));
        // What the routes read must be written.
        for (const key of info.requires ?? []) expect(info.writes, `${where}: requires ${key}`).toContain(key);
      }
    }
  });

  for (const manifest of graphManifests) {
    it(`${manifest.name}: each slot reads fields of the graph's state, or of the Send payload it declares`, async () => {
      const spec = await manifest.load();
      const fields = Object.keys(spec.state.fields);
      for (const [slot, info] of Object.entries(manifest.slots)) {
        if (info.payload) continue; // a payload's fields are its type's (checked by tsc through the slot reference)
        const unknown = (info.reads ?? []).filter((field) => !fields.includes(field));
        expect(unknown, `${manifest.name} ${slot} reads fields its graph's state lacks`).toEqual([]);
      }
    });
  }

  it("a default node calling the model under another role than its slot declares stops, naming the slot and both roles", async () => {
    const calls = [{ role: "embedder" }, { role: "generator" }, { role: "critic" }];
    const node = checkedNode("g", "generate", { role: "generator", writes: ["sql"] }, async () => ({ sql: "SELECT 1", calls }));
    await expect(node({})).rejects.toThrow("slot 'generate' of graph 'g' called the model as critic, not its declared role (generator)");
    const silent = checkedNode("g", "execute", { writes: ["execution"] }, async () => ({ execution: null, calls: [{ role: "fixer" }] }));
    await expect(silent({})).rejects.toThrow("slot 'execute' of graph 'g' called the model as fixer, but declares no role");
    // A replacement (held to no declarations) may call any role.
    const replaced = checkedNode("g", "generate", { role: "generator" }, async () => ({ sql: "SELECT 1", calls }));
    await expect(replaced({})).resolves.toEqual({ sql: "SELECT 1", calls });
  });
});

describe("the slot reference", () => {
  it("docs/guides/slots.md and its type check are what scripts/slot-reference.ts makes from the declarations (run `npx tsx scripts/slot-reference.ts`)", () => {
    expect(fs.readFileSync(SLOT_REFERENCE_FILE, "utf8")).toBe(slotReference());
    expect(fs.readFileSync(SLOT_TYPES_FILE, "utf8")).toBe(slotTypeChecks());
  });

  it("names, per slot, its contract and the factory type a replacement must have", () => {
    const doc = slotReference();
    for (const manifest of graphManifests) {
      expect(doc).toContain(`## ${manifest.name}\n\n${manifest.summary}\n`);
      for (const [slot, info] of Object.entries(manifest.slots)) expect(doc).toContain(`#### \`${slot}\` — ${info.summary}`);
    }
    const tsSql = doc.slice(doc.indexOf("## ts-sql\n"), doc.indexOf("## ts-sql-refine\n"));
    expect(tsSql).toContain("- state: `TsSqlStateValue` (updates: `TsSqlStateUpdate`)");
    const vote = tsSql.slice(tsSql.indexOf("#### `vote`"), tsSql.indexOf("#### `test`"));
    expect(vote).toContain("- factory: `NodeFactory<TsSqlStateValue, TsSqlStateUpdate | Command>`");
    expect(vote).toContain("- role: `selector`");
    expect(vote).toContain("- writes: `testCode`");
    const critic = doc.slice(doc.indexOf("#### `critic`"));
    expect(critic).toContain("- factory: `NodeFactory<CandidatePayload, Command>`");
    expect(critic).toContain("- given: the `Send` payload `CandidatePayload` (not the graph's state)");
    expect(critic).toContain("- returns: a Command routing to `refine`, `vote`");
    // A shared node is typed over the shared state in every graph that wires it.
    const generate = tsSql.slice(tsSql.indexOf("#### `generate`"));
    expect(generate).toContain("- factory: `NodeFactory<SqlStateValue, SqlStateUpdate | Command>` (a shared node");
  });
});
