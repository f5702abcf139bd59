import { defineOptions } from "../../core/options.ts";

/**
 * Sub-questions of one path at most (a longer decomposition is cut; the graph's step bound and the manifest's call
 * count rely on it).
 */
export const MAX_SUB_QUESTIONS = 6;

/** The correction module's knobs (memo-sql and memo-refine): Table 3's variants are `retrieval` values. */
export const MEMO_CORRECTION_OPTIONS = defineOptions({
  memory: { type: "string", metavar: "FILE", help: "error-correction memory (sqlmend memo build); without one the critic works without memory" },
  retrieval: {
    type: "choice",
    choices: ["filtered", "top4", "random", "none"],
    default: "filtered",
    help: "memory shown to the critic: top 40 + subsumption filter, top 4 unfiltered, 4 at random, or none (direct correction)",
  },
  refineRounds: { type: "int", default: 3, min: 1, max: 10, help: "critic↔refiner rounds per candidate" },
  noLinking: {
    type: "boolean",
    default: false,
    help: "skip schema and value linking (Table 5: w/o schema linking); memo-refine's critic then sees what memo-sql's does under it",
  },
  allowMemoryOverlap: {
    type: "boolean",
    default: false,
    help: "run even when the memory holds entries made from the evaluated questions or their databases (their answers can reach the critic); the report and each question's outcome say so",
  },
});

/** memo-refine's knobs: the correction module's, and the candidates to correct (Table 3 corrects the same nine under every variant). */
export const MEMO_REFINE_OPTIONS = defineOptions({
  ...MEMO_CORRECTION_OPTIONS,
  candidates: {
    type: "string",
    metavar: "FILE",
    file: true,
    help: "correct these candidates per question (sqlmend memo candidates, from a memo-sql run) instead of the initial SQL alone; the vote picks among them",
  },
});

/** memo-sql's knobs; the booleans and `decomposition`/`styles` are Table 5's ablations. */
export const MEMO_SQL_OPTIONS = defineOptions({
  ...MEMO_CORRECTION_OPTIONS,
  voteEmpty: { type: "choice", choices: ["keep", "discard"], default: "keep", help: "empty results in the vote: keep (A.4) or discard (Alpha-SQL's protocol)" },
  decomposition: { type: "choice", choices: ["structured", "random"], default: "structured", help: "three paradigms, or random decompositions (Table 5)" },
  noReact: { type: "boolean", default: false, help: "final SQL from the sub-questions alone: no sub-SQL written, run or reflected on (Table 5: w/o ReAct+Reflect)" },
  noReflect: { type: "boolean", default: false, help: "act and observe each sub-question, without reflect/revise (a finer ablation than --no-react)" },
  styles: { type: "int", default: 3, min: 1, max: 3, help: "final SQL styles per path: flat JOIN, CTE, nested (Table 5: 1 = w/o multi-style)" },
  noRefine: { type: "boolean", default: false, help: "vote over the candidates as written (Table 5: w/o SQL refinement)" },
  noIcl: { type: "boolean", default: false, help: "no exemplars in final SQL generation (Table 5's ICL row)" },
  exemplars: { type: "int", default: 5, min: 0, max: 20, help: "training exemplars retrieved for final SQL generation" },
});
