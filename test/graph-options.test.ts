import { afterEach, describe, expect, it } from "vitest";
import { END, MemorySaver, Send, START, StateGraph, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { graphSpecs } from "../graphs/index.ts";
import { graphManifests } from "../graphs/registry.ts";
import { defineOptions, flagOf, optionsUsage, parseOption, readOptions } from "../core/options.ts";
import type { GraphManifest } from "../graphs/spec.ts";
import { withCalls } from "../nodes/common.ts";
import { sqlStateFields } from "../state/sql-state.ts";
import { callModel } from "../tools/models/llm.ts";
import { declaredOptionsFrom, graphOptionsOf } from "../runner/run/run-options.ts";
import { graphSettings } from "../runner/run/run-settings.ts";
import { graphUsage } from "../cli/usage/run-usage.ts";
import { flagWordingOf } from "../core/config.ts";
import { main } from "../cli/main.ts";
import { scriptedProvider } from "./support/scripted-models.ts";

const demoOptions = defineOptions({
  panelSize: { type: "int", default: 3, min: 0, help: "reviewer personas" },
  reasoning: { type: "choice", choices: ["cot", "pot"], default: "cot", help: "how the writer reasons" },
  noManager: { type: "boolean", default: false, help: "the ablation without a manager" },
  coderModels: { type: "list", default: [], help: "models that write test code" },
  guideline: { type: "string", metavar: "FILE", help: "the guideline file" },
  workers: { type: "int", default: 2, min: 1, help: "speed only", affectsAnswers: false },
});

// The launcher knows graphs by their manifests: registering one is all its flags, help and checks need.
const demoSpec: GraphManifest = {
  name: "demo-options",
  summary: "a graph that only declares options",
  kind: "generator",
  slots: {},
  options: demoOptions,
  load: () => {
    throw new Error("not built in these tests");
  },
};

const withDemo = () => {
  graphManifests.push(demoSpec);
  return () => graphManifests.splice(graphManifests.indexOf(demoSpec), 1);
};
let undo: (() => void) | undefined;
afterEach(() => undo?.());

describe("graph-declared options", () => {
  it("read typed values with defaults filled in", () => {
    const values = readOptions(demoOptions, { panelSize: 1 });
    expect(values).toEqual({ panelSize: 1, reasoning: "cot", noManager: false, coderModels: [], guideline: undefined, workers: 2 });
    expect(flagOf("maxReviewTurns")).toBe("max-review-turns");
  });

  it("validate flag values with one-line errors", () => {
    expect(parseOption("panelSize", demoOptions.panelSize, "2")).toBe(2);
    expect(() => parseOption("panelSize", demoOptions.panelSize, "-1")).toThrow("--panel-size takes a number >= 0, not '-1'");
    expect(() => parseOption("panelSize", demoOptions.panelSize, "1.5")).toThrow("--panel-size takes a whole number, not '1.5'");
    expect(() => parseOption("reasoning", demoOptions.reasoning, "tot")).toThrow("--reasoning takes cot, pot; not 'tot'");
    expect(parseOption("coderModels", demoOptions.coderModels, "a, b,,c")).toEqual(["a", "b", "c"]);
    expect(parseOption("guideline", demoOptions.guideline, undefined)).toBeUndefined();
  });

  it("belong to their graph: another graph's flag is refused, naming its owner", () => {
    undo = withDemo();
    const baseline = graphSpecs.find((g) => g.name === "baseline")!;
    expect(declaredOptionsFrom(demoSpec, { "panel-size": "1", "no-manager": true })).toEqual({ panelSize: 1, noManager: true });
    expect(() => declaredOptionsFrom(baseline, { "panel-size": "1" })).toThrow("--panel-size is an option of demo-options, not of baseline");
    // A corrector run may take its initial generator's options.
    expect(() => declaredOptionsFrom(baseline, { "panel-size": "1" }, [demoSpec])).not.toThrow();
  });

  it("settings for the report and --resume hold every answer-changing option, defaults included", () => {
    undo = withDemo();
    expect(graphSettings([demoSpec], { panelSize: 1 })).toEqual({ "panel-size": 1, reasoning: "cot", "no-manager": false, "coder-models": [] });
  });

  it("--help of ask/eval lists the named graph's options", async () => {
    undo = withDemo();
    expect(await graphUsage(["demo-options"], { stdout: () => {}, stderr: () => {}, env: {}, cwd: process.cwd() })).toMatch(/--panel-size N\s+reviewer personas \(default 3\)/);
    expect(optionsUsage("x", demoOptions)).toMatch(/--reasoning cot\|pot\s+how the writer reasons \(default cot\)/);
    const out: string[] = [];
    const io = { stdout: (t: string) => out.push(t), stderr: (t: string) => out.push(t), env: {}, cwd: process.cwd() };
    expect(await main(["eval", "demo-options", "--help"], io)).toBe(0);
    expect(out.join("")).toContain("Options of demo-options:");
    expect(out.join("")).toContain("--guideline FILE");
  });

  it("an unknown option value stops eval with the usage, before any model is needed", async () => {
    undo = withDemo();
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => err.push(t), env: {}, cwd: process.cwd() };
    expect(await main(["eval", "baseline", "--bench", "minibench", "--out", "x", "--panel-size", "2"], io)).toBe(2);
    expect(err.join("")).toContain("--panel-size is an option of demo-options, not of baseline");
  });
});

describe("calls of parallel nodes", () => {
  it("every branch of a Send fan-out keeps its calls in one step; the next step replaces them", async () => {
    const models = scriptedProvider({ reviewer: (r) => `review ${r.messages[0]!.content}`, writer: "done" }, { delayMs: 5 });
    const State = new StateSchema({ ...sqlStateFields, persona: z.string().default("") });
    const review = async (state: { persona: string }) => {
      const call = await callModel(models, "reviewer", [{ role: "user", content: state.persona }]);
      return withCalls({}, [call.record]);
    };
    const write = async () => withCalls({}, [(await callModel(models, "writer", [{ role: "user", content: "reviews" }])).record]);
    const graph = new StateGraph(State)
      .addNode("review", review)
      .addNode("write", write)
      .addConditionalEdges(START, () => ["a", "b", "c"].map((persona) => new Send("review", { persona })), ["review"])
      .addEdge("review", "write")
      .addEdge("write", END)
      .compile({ checkpointer: new MemorySaver() });
    const config = { configurable: { thread_id: "fan-out" } };
    await graph.invoke({ question: "q", dbPath: "x.sqlite" }, config);

    const history = [];
    for await (const snapshot of graph.getStateHistory(config)) history.push(snapshot);
    const afterReviews = history.find((s) => s.next.includes("write"))!;
    const reviewCalls = (afterReviews.values as { calls: { reply: string; node?: string; step?: number }[] }).calls;
    expect(reviewCalls.map((c) => c.reply).sort()).toEqual(["review a", "review b", "review c"]);
    expect(new Set(reviewCalls.map((c) => c.node))).toEqual(new Set(["review"]));
    expect(new Set(reviewCalls.map((c) => c.step)).size).toBe(1);

    const final = (await graph.getState(config)).values as { calls: { reply: string; role: string }[]; usage: { calls: number; byRole: Record<string, { calls: number }> } };
    expect(final.calls.map((c) => c.role)).toEqual(["writer"]);
    expect(final.usage.calls).toBe(4);
    expect(final.usage.byRole.reviewer!.calls).toBe(3);
  });
});

describe("shared knobs", () => {
  it("are refused for a run none of whose graphs has the slot they act through", async () => {
    const err: string[] = [];
    const io = { stdout: () => {}, stderr: (t: string) => err.push(t), env: {}, cwd: process.cwd() };
    expect(await main(["eval", "r3", "--bench", "minibench", "--out", "x", "--few-shot", "3"], io)).toBe(2);
    expect(err.join("")).toContain("--few-shot applies to graphs with a 'generate' slot, not r3");
    // A corrector whose initial generator has the slot takes it.
    const r3Review = graphSpecs.find((g) => g.name === "r3-review")!;
    expect(() => graphOptionsOf(r3Review, { "few-shot": "2", initial: "baseline" })).not.toThrow();
    const refused = (() => {
      try {
        graphOptionsOf(r3Review, { "max-fix-rounds": "2", initial: "r3" });
      } catch (error) {
        return error;
      }
    })();
    // The runner names the option (a script's word); the launcher prints the flag.
    expect(refused).toMatchObject({ message: expect.stringContaining("maxFixRounds applies to graphs with a 'fix' slot") });
    expect(flagWordingOf(refused)).toContain("--max-fix-rounds applies to graphs with a 'fix' slot");
  });
});
