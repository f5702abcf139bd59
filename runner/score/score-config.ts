import { defineConfig } from "../../core/config.ts";
import { DEFAULT_VES_ITERATIONS, METRICS } from "../../tools/benchmarks/metric-names.ts";
import { BENCHMARK_CONFIG } from "../run/run-config.ts";

/** `score`'s options, declared once: the API's type, the launcher's flags and usage lines (cli/commands/score.ts). */
export const SCORE_CONFIG = defineConfig({
  ...BENCHMARK_CONFIG,
  pred: {
    type: "string",
    metavar: "FILE|gold",
    help: `BIRD's predict_dev.json ({"id": "SQL\\t----- bird -----\\tdb_id"}), paired by
question id (mini-dev's predict_minidev.json by position, as its
official scorer pairs it), or Spider's text format (one SQL per line,
paired by position in the question file: a line per question, a
blank line an empty prediction, a trailing "\\tdb_id" dropped);
'gold' scores the gold SQL itself (a self-check: 100%)`,
  },
  semantics: {
    type: "string",
    choices: ["bird", "spider"],
    help: `result comparison (default: the benchmark's own layout; spider also gives
--db-dir questions Spider's hardness levels)
  bird:   set of rows, column order matters (BIRD evaluation.py)
  spider: bag of rows, row order when gold has ORDER BY, columns may be
          permuted, DISTINCT removed (test-suite-sql-eval exec_eval.py)`,
  },
  keepDistinct: { type: "boolean", help: "spider semantics: keep DISTINCT" },
  metrics: {
    type: "list",
    metavar: "LIST",
    help: `any of ${METRICS.join(",")} (default ex; ex is always computed)
  ves, r-ves: BIRD's VES and mini-dev's R-VES (timed runs of correct predictions)
  soft-f1:    BIRD mini-dev's Soft F1 (partial credit by matching cell values)
  ts:         test-suite accuracy: right only when right on every database
              variant in --ts-dir (Spider's test-suite-sql-eval)`,
  },
  tsDir: { type: "string", metavar: "DIR", help: "test-suite databases: DIR/<db_id>/*.sqlite or DIR/database/<db_id>/*.sqlite\n(implies ts)" },
  ves: { type: "boolean", help: "the same as --metrics ex,ves,r-ves" },
  vesIterations: { type: "int", min: 1, help: `timed rounds per question for VES (default ${DEFAULT_VES_ITERATIONS}, as BIRD; fewer past 2 s)` },
  concurrency: { type: "int", min: 1, help: "worker processes running queries (default: CPUs)" },
  timeoutMs: { type: "int", min: 1, help: "per-query time limit (default 30000)" },
  onlyPredicted: {
    type: "boolean",
    help: `score only the questions that have a prediction (a subset run, e.g. eval --limit;
a positional file then pairs with the first questions); otherwise a
question without one counts as wrong`,
  },
  json: { type: "boolean", help: "print the whole report, with per-question verdicts, as JSON" },
});
