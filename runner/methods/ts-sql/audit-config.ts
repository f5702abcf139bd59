import { type ConfigOf, defineConfig } from "../../../core/config.ts";
import { GRAPH_CONFIG, MODEL_CONFIG, RUN_DIR_CONFIG, SELECTION_CONFIG } from "../../run/run-config.ts";

/** `ts-sql audit`'s own wording of the selection's and the folder's options. */
export const AUDIT_OWN_CONFIG = defineConfig({
  split: { ...SELECTION_CONFIG.split, help: "default dev" },
  out: { ...RUN_DIR_CONFIG.out, help: "audit.jsonl, report.md, run.json" },
  concurrency: { ...RUN_DIR_CONFIG.concurrency, help: "questions in flight (default 2)" },
  resume: { ...RUN_DIR_CONFIG.resume, help: "continue a killed or finished audit in --out without redoing finished questions" },
});

/**
 * Options of the run the audit has no node to apply them to (it generates nothing, revises nothing, fixes nothing):
 * refused by name with the reason, not dropped. `maxRevisions` is TS-SQL's own (the audit runs with 0).
 */
export const AUDIT_REFUSED = {
  maxRevisions: "the audit revises nothing (it runs with 0 revisions)",
  fewShot: "the audit generates no SQL (ts-sql-refine has no generator)",
  maxFixRounds: "TS-SQL has no execution-error fix loop",
  schemaMaxChars: "the schema text is only used by the reviser, which the audit never runs",
} as const;

// The graph is ts-sql-refine (no `graph`); the refused knobs are left out of the declaration.
const { graph: _graph, fewShot: _fewShot, maxFixRounds: _fix, schemaMaxChars: _schema, ...AUDIT_GRAPH_CONFIG } = GRAPH_CONFIG;

/** Every option of `sqlmend ts-sql audit` and `auditGold` (TS-SQL's own are the graph's options: `options`, or flags). */
export const AUDIT_CONFIG = defineConfig({ ...RUN_DIR_CONFIG, ...MODEL_CONFIG, ...AUDIT_GRAPH_CONFIG, ...AUDIT_OWN_CONFIG });
export type AuditConfig = ConfigOf<typeof AUDIT_CONFIG>;
