import type { ExperimentHtmlRow } from "../report/report-html.ts";
import type { RunRow } from "./table-rows.ts";

/** report.html's Experiment table: the rows that ran (not the guideline runs), as table.json has them. */
export function experimentHtmlRows(rows: RunRow[]): ExperimentHtmlRow[] {
  return rows
    .filter((r) => !r.notRun && !r.guideline)
    .map((r) => ({
      run: r.run,
      graph: r.graph,
      questions: r.questions,
      ex: r.ex,
      interval: r.exInterval,
      sd: r.repeats ? r.repeats.sd : null,
      repeats: r.repeats ? { seeds: r.repeats.seeds, ex: r.repeats.ex } : null,
      tokensPerQuestion: r.tokensPerQuestion,
      callsPerQuestion: r.callsPerQuestion,
      costPerQuestion: r.costPerQuestion,
      failed: r.failed,
      versus: r.versus,
      model: r.model,
    }));
}
