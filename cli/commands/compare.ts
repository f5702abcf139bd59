import fs from "node:fs";
import path from "node:path";
import type { Command } from "../shared/command.ts";
import { UsageError, UserError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import type { EvalRecord, parseResults } from "../../runner/report.ts";
import { exByDifficulty } from "../../tools/benchmarks/score.ts";

interface RunOutputs {
  dir: string;
  label: string;
  records: Map<string, EvalRecord>;
  run: Record<string, unknown>;
}

function readRun(dir: string, cwd: string, parse: typeof parseResults): RunOutputs {
  const abs = path.resolve(cwd, dir);
  const file = path.join(abs, "results.jsonl");
  if (!fs.existsSync(file)) throw new UserError(`${dir}: no results.jsonl (is it an 'sqlmend eval' --out folder?)`);
  const { records } = parse(fs.readFileSync(file, "utf8"));
  let run: Record<string, unknown> = {};
  try {
    run = JSON.parse(fs.readFileSync(path.join(abs, "run.json"), "utf8")) as Record<string, unknown>;
  } catch {
    // run.json is optional for comparing: labels fall back to the folder name
  }
  const graph = typeof run.graph === "string" ? run.graph : "?";
  return { dir: abs, label: `${path.basename(abs)} (${graph})`, records, run };
}

/** Exact two-sided McNemar test: binomial on the discordant pairs. */
export function mcnemarP(onlyA: number, onlyB: number): number {
  const n = onlyA + onlyB;
  if (n === 0) return 1;
  const k = Math.min(onlyA, onlyB);
  let logC = 0; // log C(n, 0)
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logC - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

export const compareCommand: Command = {
  name: "compare",
  usage: `Usage: sqlmend compare OUT_A OUT_B [--json] [--show N]

Compares two 'sqlmend eval' output folders on the questions both answered (failed ones are counted apart): EX of each (overall and per difficulty),
the questions one got right and the other wrong, an exact McNemar test on those, and cost per question.
  --show N   ids listed per group (default 10)`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, { json: { type: "boolean" }, show: { type: "string" } });
    if (positionals.length !== 2) throw new UsageError("name two eval output folders");
    const show = values.show === undefined ? 10 : Number(values.show);
    if (!Number.isInteger(show) || show < 0) throw new UsageError(`--show takes a whole number, not '${values.show}'`);
    // The results' schema (zod) loads for a comparison, not for --help.
    const { parseResults } = await import("../../runner/report.ts");
    const [a, b] = positionals.map((dir) => readRun(dir, io.cwd, parseResults)) as [RunOutputs, RunOutputs];
    const warnings: string[] = [];
    for (const key of ["bench", "split", "semantics"]) {
      if (a.run[key] !== undefined && b.run[key] !== undefined && a.run[key] !== b.run[key]) {
        warnings.push(`the runs differ in ${key}: ${String(a.run[key])} vs ${String(b.run[key])}`);
      }
    }
    // A failed question has no answer to compare: the comparison is over questions both runs answered.
    const { isFailed } = await import("../../runner/report.ts");
    const failedIn = (run: RunOutputs) => [...run.records.values()].filter(isFailed).map((r) => r.id);
    const failedInA = failedIn(a);
    const failedInB = failedIn(b);
    const common = [...a.records.keys()].filter((id) => b.records.has(id));
    const ids = common.filter((id) => !isFailed(a.records.get(id)!) && !isFailed(b.records.get(id)!));
    if (!common.length) throw new UserError("the two runs have no question in common");
    if (!ids.length) throw new UserError(`the two runs have no question in common that both answered (failed: ${failedInA.length} in A, ${failedInB.length} in B; --resume retries them)`);
    const pairs = ids.map((id) => ({ id, a: a.records.get(id)!, b: b.records.get(id)! }));
    const onlyA = pairs.filter((p) => p.a.correct && !p.b.correct).map((p) => p.id);
    const onlyB = pairs.filter((p) => !p.a.correct && p.b.correct).map((p) => p.id);
    const both = pairs.filter((p) => p.a.correct && p.b.correct).length;
    const neither = pairs.length - both - onlyA.length - onlyB.length;
    const side = (records: EvalRecord[]) => ({
      ex: (records.filter((r) => r.correct).length / records.length) * 100,
      byDifficulty: exByDifficulty(records),
      tokensPerQuestion: mean(records.map((r) => r.inputTokens + r.outputTokens)),
      callsPerQuestion: mean(records.map((r) => r.calls)),
      latencyMsPerQuestion: mean(records.map((r) => r.latencyMs)),
    });
    const result = {
      a: { dir: a.dir, ...side(pairs.map((p) => p.a)) },
      b: { dir: b.dir, ...side(pairs.map((p) => p.b)) },
      common: ids.length,
      onlyInA: a.records.size - common.length,
      onlyInB: b.records.size - common.length,
      failedInA,
      failedInB,
      bothCorrect: both,
      neitherCorrect: neither,
      onlyACorrect: onlyA,
      onlyBCorrect: onlyB,
      mcnemarP: mcnemarP(onlyA.length, onlyB.length),
      warnings,
    };
    if (values.json) {
      io.stdout(`${JSON.stringify(result, null, 2)}\n`);
      return 0;
    }
    const width = Math.max(a.label.length, b.label.length, 10);
    const failedNote = failedInA.length || failedInB.length ? `; left out, failed: ${failedInA.length} in A, ${failedInB.length} in B — --resume retries them` : "";
    const lines = [`${ids.length} questions in common, answered by both (${result.onlyInA} only in A, ${result.onlyInB} only in B${failedNote})`, ""];
    const levels = [...new Set([...result.a.byDifficulty, ...result.b.byDifficulty].map((d) => d.difficulty))];
    lines.push(`${"".padEnd(width)}  ${"EX %".padStart(7)}  ${levels.map((l) => l.padStart(11)).join("  ")}  ${"tokens/q".padStart(9)}  ${"calls/q".padStart(7)}  ${"s/q".padStart(6)}`);
    for (const [label, s] of [
      [`A ${a.label}`, result.a],
      [`B ${b.label}`, result.b],
    ] as const) {
      const perLevel = levels.map((l) => (s.byDifficulty.find((d) => d.difficulty === l)?.ex.toFixed(2) ?? "-").padStart(11));
      lines.push(
        `${label.padEnd(width + 2).slice(0, width + 2)}${s.ex.toFixed(2).padStart(7)}  ${perLevel.join("  ")}  ${Math.round(s.tokensPerQuestion).toString().padStart(9)}  ${s.callsPerQuestion.toFixed(2).padStart(7)}  ${(s.latencyMsPerQuestion / 1000).toFixed(2).padStart(6)}`,
      );
    }
    const list = (xs: string[]) => (xs.length ? `: ${xs.slice(0, show).join(", ")}${xs.length > show ? ", ..." : ""}` : "");
    lines.push(
      "",
      `both right ${both}, both wrong ${neither}`,
      `only A right ${onlyA.length}${list(onlyA)}`,
      `only B right ${onlyB.length}${list(onlyB)}`,
      `McNemar exact p = ${result.mcnemarP.toPrecision(3)}${result.mcnemarP < 0.05 ? " (the EX difference is significant at 0.05)" : ""}`,
    );
    for (const w of warnings) lines.push(`warning: ${w}`);
    io.stdout(`${lines.join("\n")}\n`);
    return 0;
  },
};
