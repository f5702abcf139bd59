import fs from "node:fs";
import { manifestOf } from "./registry.js";
/**
 * A graph declaring a `guideline` option (MAGIC's corrector) takes the run's `configurable.guideline`, else
 * SQLMEND_GUIDELINE (each run reports a missing one).
 */
const guidelineOf = (config) => {
    const file = config.configurable?.guideline ?? process.env.SQLMEND_GUIDELINE;
    return file && fs.existsSync(file) ? { guideline: file } : {};
};
/** The server's factory for a registered graph (an unknown name fails when served.ts is imported). */
export const servedGraph = (name) => {
    const manifest = manifestOf(name);
    return async (config = {}) => {
        const [spec, { defaultDeps }] = await Promise.all([manifest.load(), import("./deps.js")]);
        const settings = (config.configurable?.sqlmend ?? {});
        const own = manifest.options?.guideline ? guidelineOf(config) : {};
        return spec.build(defaultDeps(process.env, { ...settings.models, configFile: undefined }), { ...own, ...settings.options, ...(settings.cwd ? { cwd: settings.cwd } : {}) });
    };
};
