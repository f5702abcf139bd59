import fs from "node:fs";
import type { ModelFlags } from "../tools/models/models.ts";
import { manifestOf } from "./registry.ts";

/**
 * langgraph.json's entries: one factory per graph, which the LangGraph server calls when it needs the graph. Nothing
 * is built (nor LangGraph loaded) when this module is imported; each factory loads its spec through the registry and
 * builds it with dependencies from the environment (`graphs/deps.ts`).
 */
type ServedConfig = { configurable?: Record<string, unknown> };

/**
 * What a run may set in `configurable.sqlmend` (`eval --server` sends it): the graph's options as the launcher parsed
 * them (camelCase keys, shared knobs included), the model settings (never a key: the server's environment holds it),
 * and the launcher's working directory for relative file options.
 */
export interface ServedSettings {
  options?: Record<string, unknown>;
  models?: ModelFlags;
  cwd?: string;
}

const served = (name: string, options: (config: ServedConfig) => Record<string, unknown> = () => ({})) => async (config: ServedConfig = {}) => {
  const [spec, { defaultDeps }] = await Promise.all([manifestOf(name).load(), import("./deps.ts")]);
  const settings = (config.configurable?.sqlmend ?? {}) as ServedSettings;
  return spec.build(defaultDeps(process.env, { ...settings.models, configFile: undefined }), { ...options(config), ...settings.options, ...(settings.cwd ? { cwd: settings.cwd } : {}) });
};

/** MAGIC's guideline file: the run's `configurable.guideline`, else SQLMEND_GUIDELINE (each run reports a missing one). */
const guidelineOf = (config: ServedConfig) => {
  const file = (config.configurable?.guideline as string | undefined) ?? process.env.SQLMEND_GUIDELINE;
  return file && fs.existsSync(file) ? { guideline: file } : {};
};

export const baseline = served("baseline");
export const repair = served("repair");
export const asGiven = served("as-given");
export const r3 = served("r3");
export const r3Review = served("r3-review");
export const tsSql = served("ts-sql");
export const tsSqlRefine = served("ts-sql-refine");
export const memoSql = served("memo-sql");
export const memoRefine = served("memo-refine");
export const magic = served("magic", guidelineOf);
export const magicFeedback = served("magic-feedback");
export const magicGuideline = served("magic-guideline");
export const selfDebugging = served("self-debugging");
export const selfConsistency = served("self-consistency");
export const multiplePrompt = served("multiple-prompt");
