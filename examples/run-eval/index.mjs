// A benchmark run from a script: the baseline graph on the project's own small benchmark, writing the same run folder
// `sqlmend eval baseline --bench minibench --out OUT --limit 5` writes, and returning its figures.
//
//   OPENAI_BASE_URL=http://127.0.0.1:11434/v1 SQLMEND_MODEL=qwen2.5-coder:7b node index.mjs runs/baseline
import { runEval } from "sqlmend";

const out = process.argv[2] ?? "runs/baseline";
// Options by the names `sqlmend eval` takes (camelCase); a graph's own options go in `options`.
const result = await runEval({ graph: "baseline", bench: "minibench", out, limit: 5, maxFixRounds: 1, cache: "off" });
console.log(JSON.stringify({ exitCode: result.exitCode, ex: result.ex, scored: result.scored, failed: result.failed, report: result.files.report }));
process.exitCode = result.exitCode;
