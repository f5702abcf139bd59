import { defineOptions } from "../../core/options.js";
/**
 * A writer reply that holds no SQL is sent back this many times at most, in the same dialogue, before the node gives
 * up: a missing fence costs one short call, not a whole review round. (Here, not in writer.ts: the manifest counts
 * calls with it and loads no model code.)
 */
export const MAX_SQL_REASKS = 2;
/** The review loop's knobs, shared by `r3` and `r3-review` (Table 3's ablations and Algorithm 1's limits). */
export const R3_LOOP_OPTIONS = defineOptions({
    reviewers: { type: "int", default: 3, min: 0, max: 16, help: "reviewer agents per round (0: writer and debug loop only; Table 3's CoT / PoT rows also take `--max-debug-turns 0`: the writer alone, one call)" },
    reasoning: { type: "choice", choices: ["cot", "pot"], default: "pot", help: "writer reasoning: chain of thought, or a short program of thought before the SQL" },
    maxDebugTurns: { type: "int", default: 3, min: 0, max: 20, help: "execution-error rewrites per review round (3 is sqlmend's choice: the paper gives no value)" },
    maxReviewTurns: { type: "int", default: 5, min: 1, max: 100, help: "review rounds before stopping without consensus (5 is sqlmend's choice: the paper gives no value)" },
    historyTokens: { type: "int", default: 12_000, min: 500, help: "token budget of the writer's prompt; oldest turns are cut first, never the question and schema" },
    resultRows: { type: "int", default: 10, min: 1, max: 200, help: "result rows shown to reviewers" },
});
export const R3_OPTIONS = defineOptions({
    ...R3_LOOP_OPTIONS,
    kShot: { type: "int", default: 5, min: 0, max: 50, help: "training examples most similar to the question in the writer's first prompt (0: zero-shot)" },
});
