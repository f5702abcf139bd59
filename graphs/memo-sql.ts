import { defaultMaxListeners, setMaxListeners } from "node:events";
import { START, StateGraph, Send } from "@langchain/langgraph";
import { MemoState, type MemoStateValue, STRATEGIES } from "../state/memo.ts";
import { contextOf } from "../nodes/memo/common.ts";
import { collectNode, criticNode, memoryStoreFor, refineNode, voteNode } from "../nodes/memo/correct.ts";
import { MEMO_SQL_OPTIONS } from "../nodes/memo/options.ts";
import { actNode, decomposeNode, reflectNode, reviseNode } from "../nodes/memo/solve.ts";
import { writeNode } from "../nodes/memo/write.ts";
import type { NodeFactory } from "../nodes/types.ts";
import { defaultDeps } from "./deps.ts";
import { readOptions } from "./options.ts";
import { SHARED_SLOTS } from "./slots.ts";
import { type BuildOptions, type GraphSpec, slotNode } from "./spec.ts";

// Each parallel branch (nine critics, plus the other questions in flight) listens on the run's abort signal; Node's
// default of 10 listeners per signal would print a leak warning for this intended fan-out.
setMaxListeners(Math.max(defaultMaxListeners, 100));

// Memo-SQL's own nodes take a branch payload (Send) and return a Command naming the next step; they are slots
// like any other, with that contract (see ARCHITECTURE.md).
const slot = (summary: string, factory: unknown) => ({ summary, factory: factory as NodeFactory });

export const MEMO_SLOTS = {
  decompose: slot("one decomposition per paradigm, or the fallback (role: decomposer)", decomposeNode),
  act: slot("reason → sub-SQL → execute for one sub-question (role: solver)", actNode),
  reflect: slot("check the current sub-SQL against the earlier steps (role: reflector)", reflectNode),
  revise: slot("rewrite a sub-SQL once after a reflection found a problem (role: solver)", reviseNode),
  write: slot("final SQL of a path in one style, with retrieved exemplars (role: writer)", writeNode),
  collect: slot("gate: wait for every candidate, then one critic each", collectNode),
  critic: slot("memory-guided verdict on a candidate: wrong?, error types, suggestions (role: critic)", criticNode),
  refine: slot("rewrite a candidate per the critic (role: refiner)", refineNode),
  vote: slot("gate: wait for every candidate to be final, then majority vote over results", voteNode),
};

/**
 * Memo-SQL (Figure 2): link → schema → three decompositions in parallel → per path, each sub-question through
 * act → reflect → (revise once) → the final SQL in three styles → nine candidates → per candidate, critic ↔ refiner
 * with the error-correction memory → majority vote over execution results.
 */
export const memoSqlSpec: GraphSpec = {
  name: "memo-sql",
  summary: "Memo-SQL: 3 decompositions × ReAct+Reflect × 3 SQL styles, memory-guided critic↔refiner, majority vote",
  kind: "generator",
  options: MEMO_SQL_OPTIONS,
  needsExamples: (values) => {
    const o = readOptions(MEMO_SQL_OPTIONS, values);
    return !o.noIcl && o.exemplars > 0 ? `memo-sql: ${o.exemplars} exemplars per style (--no-icl to go without)` : undefined;
  },
  slots: { link: SHARED_SLOTS.link, schema: SHARED_SLOTS.schema, ...MEMO_SLOTS },
  build(deps, options: BuildOptions = {}) {
    const o = readOptions(MEMO_SQL_OPTIONS, options);
    if (o.memory && o.retrieval !== "none") memoryStoreFor(o.memory, deps.embeddings, options); // a bad file fails here, in one line
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const node = (name: string) => slotNode(memoSqlSpec, name, deps, options) as any;
    const fanOut = (state: MemoStateValue) => STRATEGIES.map((strategy) => new Send("decompose", { ctx: contextOf(state, !o.noLinking), strategy }));
    const graph = new StateGraph(MemoState)
      .addNode("schema", node("schema"))
      .addNode("decompose", node("decompose"), { ends: ["act", "write"] })
      .addNode("act", node("act"), { ends: ["act", "reflect", "write"] })
      .addNode("reflect", node("reflect"), { ends: ["act", "revise", "write"] })
      .addNode("revise", node("revise"), { ends: ["act", "write"] })
      .addNode("write", node("write"), { ends: ["collect"] })
      .addNode("collect", node("collect"), { ends: ["critic", "vote"] })
      .addNode("critic", node("critic"), { ends: ["refine", "vote"] })
      .addNode("refine", node("refine"), { ends: ["critic", "vote"] })
      .addNode("vote", node("vote"));
    if (o.noLinking) graph.addEdge(START, "schema");
    else graph.addNode("link", node("link")).addEdge(START, "link").addEdge("link", "schema");
    const compiled = graph.addConditionalEdges("schema", fanOut, ["decompose"]).compile({ checkpointer: options.checkpointer });
    compiled.name = "memo-sql";
    return compiled;
  },
};

export const graph = memoSqlSpec.build(defaultDeps());
