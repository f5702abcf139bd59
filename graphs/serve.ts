import fs from "node:fs";
import type { ModelFlags } from "../tools/models/models.ts";
import { manifestOf } from "./registry.ts";
import type { GraphSpec } from "./spec.ts";

/**
 * How a LangGraph server gets a registered graph: `servedGraph(name)` is the factory the server calls when it needs
 * the graph. Nothing is built (nor LangGraph loaded) until then; it loads the spec through the registry and builds it
 * with dependencies from the environment (`graphs/deps.ts`). `graphs/served.ts` holds one such export per registered
 * graph and langgraph.json names them: both are written from the registry by `npm run served`.
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

/**
 * A graph declaring a `guideline` option (MAGIC's corrector) takes the run's `configurable.guideline`, else
 * SQLMEND_GUIDELINE (each run reports a missing one).
 */
const guidelineOf = (config: ServedConfig) => {
  const file = (config.configurable?.guideline as string | undefined) ?? process.env.SQLMEND_GUIDELINE;
  return file && fs.existsSync(file) ? { guideline: file } : {};
};

/** The server's factory for a registered graph (an unknown name fails when served.ts is imported). */
export const servedGraph = (name: string) => {
  const manifest = manifestOf(name);
  return async (config: ServedConfig = {}) => {
    const [spec, { defaultDeps }] = await Promise.all([manifest.load(), import("./deps.ts")]);
    const settings = (config.configurable?.sqlmend ?? {}) as ServedSettings;
    const own = manifest.options?.guideline ? guidelineOf(config) : {};
    return spec.build(defaultDeps(process.env, { ...settings.models, configFile: undefined }), { ...own, ...settings.options, ...(settings.cwd ? { cwd: settings.cwd } : {}) });
  };
};

/**
 * The server's factory for a graph module of the user's (`sqlmend serve --graph FILE`, or a hand-written
 * langgraph.json: `export const mine = servedModule("/abs/mine-graph.ts")`): the module is loaded on first use as
 * `eval --graph` loads it (from any folder, importing sqlmend's own copies) and built like a registered graph.
 */
export const servedModule = (file: string) => {
  let loaded: Promise<GraphSpec> | undefined;
  return async (config: ServedConfig = {}) => {
    loaded ??= (async () => {
      const { importModule } = await import("../tools/import-module.ts");
      const spec = (await importModule(file)).default as GraphSpec | undefined;
      if (!spec || typeof spec.build !== "function" || typeof spec.name !== "string") throw new Error(`${file} must default-export a graph made with defineGraph`);
      return spec;
    })();
    const [spec, { defaultDeps }] = await Promise.all([loaded, import("./deps.ts")]);
    const settings = (config.configurable?.sqlmend ?? {}) as ServedSettings;
    return spec.build(defaultDeps(process.env, { ...settings.models, configFile: undefined }), { ...settings.options, ...(settings.cwd ? { cwd: settings.cwd } : {}) });
  };
};
