import { describe, expect, it } from "vitest";
import { checkConfig, type ConfigInput, commandLineOfConfig, defineConfig } from "../core/config.ts";
import { configFromFlags, flagTableOf, usageOf } from "../cli/shared/flag-config.ts";
import { parseFlags } from "../cli/shared/flags.ts";

const defs = defineConfig({
  bench: { type: "string", metavar: "DIR", help: "the benchmark" },
  limit: { type: "int", min: 1, help: "first N questions" },
  temperature: { type: "number", min: 0, max: 2, help: "sampling temperature" },
  resume: { type: "boolean", help: "go on" },
  ids: { type: "list", help: "question ids" },
  run: { type: "strings", metavar: "NAME", help: "a run (repeatable)" },
  roleModel: { type: "record", metavar: "ROLE=NAME", help: "a model for a role" },
  split: { type: "string", choices: ["dev", "train"], help: "the split" },
});

describe("typed config: declared once, parsed once", () => {
  it("the launcher's flags and a script's options give the same typed config", () => {
    const argv = ["--bench", "b", "--limit", "5", "--temperature", "0.5", "--resume", "--ids", "1, 2", "--run", "a", "--run", "b", "--role-model", "critic=gpt-4o", "--split", "dev"];
    const fromFlags = configFromFlags(defs, parseFlags(argv, flagTableOf(defs)).values);
    const input: ConfigInput<typeof defs> = { bench: "b", limit: 5, temperature: 0.5, resume: true, ids: [1, 2], run: ["a", "b"], roleModel: { critic: "gpt-4o" }, split: "dev" };
    const fromApi = checkConfig("runX", defs, input);
    expect(fromFlags).toEqual({ bench: "b", limit: 5, temperature: 0.5, resume: true, ids: ["1", "2"], run: ["a", "b"], roleModel: { critic: "gpt-4o" }, split: "dev" });
    expect(fromApi).toEqual(fromFlags);
    expect(commandLineOfConfig("x", [], defs, fromApi)).toBe("sqlmend x --bench b --limit 5 --temperature 0.5 --resume --ids 1,2 --run a --run b --role-model critic=gpt-4o --split dev");
  });

  it("writes the command line in the declaration's order, whatever order a script gave the options in", () => {
    const fromFlags = configFromFlags(defs, parseFlags(["--split", "dev", "--limit", "5", "--bench", "b"], flagTableOf(defs)).values);
    const fromApi = checkConfig("runX", defs, { split: "dev", limit: 5, bench: "b" });
    expect(commandLineOfConfig("x", [], defs, fromApi)).toBe("sqlmend x --bench b --limit 5 --split dev");
    expect(commandLineOfConfig("x", [], defs, fromApi)).toBe(commandLineOfConfig("x", [], defs, fromFlags));
  });

  it("errors name the flag on the command line and the option in a script", () => {
    expect(() => configFromFlags(defs, { limit: "0" })).toThrow("--limit takes a whole number >= 1, not '0'");
    expect(() => checkConfig("runX", defs, { limit: 0 })).toThrow("runX: limit takes a whole number >= 1, not 0");
    expect(() => checkConfig("runX", defs, { limt: 5 })).toThrow("runX: unknown option 'limt'");
    expect(() => checkConfig("runX", defs, { bench: { name: "x" } })).toThrow("runX: bench takes one value (text or a number)");
    expect(() => configFromFlags(defs, { "role-model": ["critic"] })).toThrow("--role-model takes NAME=VALUE, not 'critic'");
    expect(() => checkConfig("runX", defs, { split: "test" as "dev" })).toThrow("runX: split takes dev, train, not 'test'");
    expect(() => checkConfig("runX", defs, { temperature: 3 })).toThrow("temperature takes a number from 0 to 2, not 3");
  });

  it("a misspelt option does not compile", () => {
    // @ts-expect-error limt is not an option
    const bad: ConfigInput<typeof defs> = { limt: 5 };
    // @ts-expect-error a record where one value goes
    const record: ConfigInput<typeof defs> = { bench: { name: "x" } };
    // @ts-expect-error not a declared choice
    const choice: ConfigInput<typeof defs> = { split: "test" };
    expect([bad, record, choice]).toHaveLength(3);
  });

  it("usage lines come from the declaration", () => {
    expect(usageOf(defs)).toContain("  --bench DIR               the benchmark");
    expect(usageOf(defs)).toContain("  --split dev|train");
    expect(usageOf(defs)).toContain("  --role-model ROLE=NAME");
  });
});
