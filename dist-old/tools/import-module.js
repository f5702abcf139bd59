var __rewriteRelativeImportExtension = (this && this.__rewriteRelativeImportExtension) || function (path, preserveJsx) {
    if (typeof path === "string" && /^\.\.?\//.test(path)) {
        return path.replace(/\.(tsx)$|((?:\.d)?)((?:\.[^./]+?)?)\.([cm]?)ts$/i, function (m, tsx, d, ext, cm) {
            return tsx ? preserveJsx ? ".jsx" : ".js" : d && (!ext || !cm) ? m : (d + ext + "." + cm.toLowerCase() + "js");
        });
    }
    return path;
};
import { pathToFileURL } from "node:url";
/** True when this code runs compiled (dist/), where plain node cannot load TypeScript by itself. */
const COMPILED = !import.meta.url.endsWith(".ts");
const TYPESCRIPT = /\.[cm]?tsx?$/i;
let loader;
/**
 * Imports a user's module by file path (`--node SLOT=./my.ts`). A TypeScript module first registers tsx's hooks, once
 * and only then, so runs without one never pay for them.
 */
export async function importModule(file) {
    if (TYPESCRIPT.test(file)) {
        loader ??= (async () => {
            // Outside a "type": "module" package Node takes a .ts file for CommonJS: tsx's CommonJS hook compiles it then.
            (await import("tsx/cjs/api")).register();
            if (COMPILED)
                (await import("tsx/esm/api")).register(); // the sources run with it registered already
        })();
        await loader;
    }
    const namespace = (await import(__rewriteRelativeImportExtension(pathToFileURL(file).href)));
    // A module compiled to CommonJS arrives as { default: module.exports } with its ESM exports inside.
    const exports = namespace.default;
    return exports && typeof exports === "object" && exports.__esModule ? exports : namespace;
}
