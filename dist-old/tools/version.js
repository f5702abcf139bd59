var __rewriteRelativeImportExtension = (this && this.__rewriteRelativeImportExtension) || function (path, preserveJsx) {
    if (typeof path === "string" && /^\.\.?\//.test(path)) {
        return path.replace(/\.(tsx)$|((?:\.d)?)((?:\.[^./]+?)?)\.([cm]?)ts$/i, function (m, tsx, d, ext, cm) {
            return tsx ? preserveJsx ? ".jsx" : ".js" : d && (!ext || !cm) ? m : (d + ext + "." + cm.toLowerCase() + "js");
        });
    }
    return path;
};
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { sha256OfFile } from "./hash.js";
/** The package's root folder (tools/ in the sources, dist/tools/ when compiled), or undefined when not found. */
function packageRoot() {
    const file = [new URL("../package.json", import.meta.url), new URL("../../package.json", import.meta.url)].find((f) => fs.existsSync(f));
    return file ? path.dirname(fileURLToPath(file)) : undefined;
}
let cached;
/** The version in package.json, for reports. */
export function projectVersion() {
    if (!cached) {
        try {
            cached = JSON.parse(fs.readFileSync(path.join(packageRoot(), "package.json"), "utf8")).version;
        }
        catch {
            cached = "unknown";
        }
    }
    return cached;
}
const identities = new Map();
/** This process's code identity (`root`: another copy of the package, for tests), computed once per root (~5-35 ms). */
export function codeIdentity(root = packageRoot()) {
    const key = root ?? "";
    let identity = identities.get(key);
    if (!identity)
        identities.set(key, (identity = computeIdentity(root)));
    return identity;
}
async function computeIdentity(root) {
    if (root === undefined)
        return { version: projectVersion(), sha256: "unknown", of: "build" };
    const version = (() => {
        try {
            return JSON.parse(fs.readFileSync(path.join(root, "package.json"), "utf8")).version;
        }
        catch {
            return "unknown";
        }
    })();
    // bin/ ships with the package, so the digest is the same code in the sources and in dist/ (whose layout differs).
    const { sourceDigest, SOURCE_ROOTS } = (await import(__rewriteRelativeImportExtension(pathToFileURL(path.join(root, "bin", "freshness.js")).href)));
    const sources = sourceDigest(root, SOURCE_ROOTS);
    if (sources)
        return { version, sha256: sources, of: "sources" };
    // An installed package: the digest of the sources it was built from, else of the build itself.
    try {
        const recorded = JSON.parse(fs.readFileSync(path.join(root, "dist", ".sources.json"), "utf8")).sha256;
        if (typeof recorded === "string")
            return { version, sha256: recorded, of: "build" };
    }
    catch {
        // no record: hash dist/
    }
    return { version, sha256: sourceDigest(root, ["dist"]) ?? "unknown", of: "build" };
}
/** "0.1.0, sources sha256 1a2b3c4d5e6f7081": how messages and reports name a code identity. */
export function describeCode(code) {
    if (!code)
        return "no recorded code identity (a run started before sqlmend recorded one)";
    return `${code.version}, ${code.of} sha256 ${code.sha256.slice(0, 16)}`;
}
/**
 * A module a run loads from the user (`--node SLOT=MODULE`, and `--graph FILE` the same way) as run.json records it:
 * where it was and the sha256 of its bytes. `--resume` compares the hash, not the path, so the module or the run
 * folder may move but not change. Only the named file is hashed: helpers it imports from other files are not.
 */
export function moduleIdentity(file) {
    return { path: file, sha256: sha256OfFile(file) };
}
