import { type ConfigOf, defineConfig } from "../../core/config.ts";
import { RUN_CONFIG, RUN_DIR_CONFIG } from "../run/run-config.ts";

/** eval's own options, beside the selection's, the folder's and the run's. */
export const EVAL_OWN_CONFIG = defineConfig({
  out: {
    ...RUN_DIR_CONFIG.out,
    help: "results.jsonl (a line per question), predict_<split>.json (BIRD format),\npred_<split>.sql (Spider format: a line per selected question in file order,\nso with --limit/--ids score the .json, whose ids are explicit, with\n'sqlmend score --only-predicted'), report.md, run.json",
  },
  resume: {
    ...RUN_DIR_CONFIG.resume,
    help: "continue a killed or finished run in --out without redoing finished questions; it\nmay add questions (a larger --limit, more --ids), never drop or change any, and\nrefuses a run started by other sqlmend code or with another --node module",
  },
  semantics: { type: "string", choices: ["bird", "spider"], help: "EX semantics (default: the benchmark's own)" },
  keepDistinct: { type: "boolean", help: "Spider semantics: keep DISTINCT when comparing results (test-suite-sql-eval's --keep_distinct)" },
  server: { type: "string", metavar: "URL", help: "run the graphs on a LangGraph server (threads there; scoring here), e.g.\nhttp://127.0.0.1:2024 from 'npx @langchain/langgraph-cli dev'" },
  shard: { type: "string", metavar: "I/N", help: "run the I-th of N shares of the selection (positions I-1, I-1+N, ... in file\norder), e.g. one per machine; 'sqlmend merge' joins the N --out folders" },
  strict: {
    type: "boolean",
    help: "exit 4 when the run is degenerate: the method's defining step (TS-SQL: a test case;\nMemo-SQL: a memory hit; R3: a review round; MAGIC: a guideline revision kept)\nhappened in none of the questions (the summary and report.md say so either way)",
  },
});

/** Every option of `sqlmend eval` and `runEval`, declared once (a graph's own options come from the graph). */
export const EVAL_CONFIG = defineConfig({ ...RUN_DIR_CONFIG, ...RUN_CONFIG, ...EVAL_OWN_CONFIG });
export type EvalConfig = ConfigOf<typeof EVAL_CONFIG>;
