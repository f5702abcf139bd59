// An audit's review report (report.md): the counts, then every gold query that fails its own test case.
import { showResult, showTables } from "../../../nodes/ts-sql/prompts.ts";
import { type Outcome, summarizeOutcomes } from "../../../graphs/outcome.ts";
import type { AuditRecord } from "./audit-record.ts";

/** The review report: counts, then every gold query that fails its own test case with all a reviewer needs. */
export function renderAuditReport(
  records: AuditRecord[],
  meta: { bench: string; split: string; command: string; summarize?: (outcomes: Outcome[]) => string[]; notes?: string[] },
): string {
  const count = (s: AuditRecord["status"]) => records.filter((r) => r.status === s).length;
  const failed = records.filter((r) => r.status === "failed");
  const lines = [
    `# TS-SQL audit of gold SQL (RQ0)`,
    "",
    `Benchmark: ${meta.bench} (${meta.split}); command: \`${meta.command}\``,
    "",
    "| questions | gold passes its test case | gold fails it | no test case | errors |",
    "|---|---|---|---|---|",
    `| ${records.length} | ${count("passed")} | ${count("failed")} | ${count("untested")} | ${count("error")} |`,
    ...(meta.notes?.length ? ["", `Fallbacks during the run: ${meta.notes.length}`, ...meta.notes.map((n) => `- ${n}`)] : []),
    "",
    ...(() => {
      const outcomes = records.flatMap((r) => (r.outcome ? [r.outcome] : []));
      const lines = outcomes.length ? (meta.summarize ?? summarizeOutcomes)(outcomes) : [];
      return lines.length ? ["## What the questions went through", "", ...lines.map((l) => `- ${l}`), ""] : [];
    })(),
    "A failing gold query is a candidate for review, not a verdict: the test case (data and code) may be the one at fault",
    "(the paper's Table 1 counts both). Each entry shows the question, the gold SQL, the synthetic test data, the test",
    "code and both results.",
    "",
  ];
  for (const r of failed) {
    lines.push(
      `## ${r.id} (${r.dbId})`,
      "",
      `**Question:** ${r.question}`,
      ...(r.evidence ? ["", `**Evidence:** ${r.evidence}`] : []),
      "",
      "**Gold SQL:**",
      "```sql",
      r.goldSql,
      "```",
      "",
      "**Test data:**",
      "```",
      showTables(r.testData ?? {}),
      "```",
      "",
      `**Test code** (${r.testCode?.model || "coder"}, ${r.testCode?.how}):`,
      "```javascript",
      r.testCode?.code ?? "",
      "```",
      "",
      `**Expected (test code):** ${showResult(r.expected)}`,
      "",
      `**Gold SQL on the test data:** ${r.gold?.ok ? showResult(r.gold.result) : `error: ${r.gold?.error}`}`,
      "",
    );
  }
  const untested = records.filter((r) => r.status === "untested" || r.status === "error");
  if (untested.length) {
    lines.push("## Not tested", "", "| id | status | why |", "|---|---|---|");
    for (const r of untested) lines.push(`| ${r.id} | ${r.status} | ${(r.note ?? "").replace(/\|/g, "\\|")} |`);
    lines.push("");
  }
  return `${lines.join("\n")}\n`;
}
