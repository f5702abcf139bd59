import fs from "node:fs";
import path from "node:path";
import { lazyCrypto } from "../tools/hash.js";
import { firstLineOf, UserError } from "../core/errors.js";
import { describeCode } from "../tools/version.js";
import { writeAtomically } from "./atomic-files.js";
import { lockOutDir } from "./out-dir-lock.js";
// An output directory's run file, run.json: what the run is (settings, code, questions) and the check `--resume` makes.
const RUN_FILE = "run.json";
/**
 * A question's content as a run knows it: text, database id, evidence and gold SQL, as 16 hex digits of sha256
 * (enough to tell an edit, not a security boundary). A skipped question (its database missing) is `skipped:` and its
 * database id: it has no answer to protect, so it may become a question (the database added) or the reverse.
 */
export function questionHash(q) {
    if (q.question === undefined)
        return `skipped:${q.dbId}`;
    const content = JSON.stringify([q.question, q.dbId, q.evidence ?? "", q.goldSql ?? null]);
    return lazyCrypto().createHash("sha256").update(content).digest("hex").slice(0, 16);
}
/** `questionHash` of every selected question, skipped ones included, by id. */
export function questionHashes(questions) {
    return Object.fromEntries(questions.map((q) => [q.id, questionHash(q)]));
}
/**
 * A path as run.json records it: relative to the run folder (forward slashes) when it lies inside, so a copied or
 * moved run still names its own files; absolute otherwise.
 */
export function runPath(file, runDir) {
    const rel = path.relative(runDir, file);
    return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel.split(path.sep).join("/") : file;
}
/**
 * A file another run wrote, which a resumed run reads again and which may grow meanwhile (a corrector's `--initial`
 * predictions): its absolute path and its path from the run folder. `--resume` takes either as the same file, so a
 * run moved alone (the absolute path holds) or with its neighbours (an experiment folder: the relative one holds)
 * resumes.
 */
export function runPlace(file, runDir) {
    return { path: file, fromRun: path.relative(runDir, file).split(path.sep).join("/") };
}
const isFileIdentity = (v) => typeof v === "object" && v !== null && typeof v.sha256 === "string";
const isPlace = (v) => typeof v === "object" && v !== null && typeof v.fromRun === "string" && typeof v.path === "string";
/**
 * Whether a recorded value and this run's are the same for `--resume`: files by content (their sha256, wherever they
 * are now), places by either path, the rest as JSON. The first file whose content differs is returned in `changed`.
 */
function sameRecorded(before, now, trail = []) {
    if (isFileIdentity(before) && isFileIdentity(now))
        return before.sha256 === now.sha256 ? { same: true } : { same: false, changed: { trail, before, now } };
    if (isPlace(before) && isPlace(now))
        return { same: before.fromRun === now.fromRun || before.path === now.path };
    const bothObjects = typeof before === "object" && before !== null && typeof now === "object" && now !== null && Array.isArray(before) === Array.isArray(now);
    if (!bothObjects)
        return { same: JSON.stringify(before ?? null) === JSON.stringify(now ?? null) };
    const a = before;
    const b = now;
    const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => a[k] !== undefined || b[k] !== undefined));
    let result = { same: true };
    for (const key of keys) {
        const inner = sameRecorded(a[key], b[key], [...trail, key]);
        if (inner.changed)
            return inner;
        if (!inner.same)
            result = { same: false };
    }
    return result;
}
/** Whether two runs recorded the same value (`sameRecorded`): what `--resume` and `sqlmend merge` compare. */
export const sameRunValue = (a, b) => sameRecorded(a, b).same;
/** How the refusal names a file by where run.json keeps it: `settings.node.generate` → "the --node generate module". */
function fileLabel(trail) {
    const at = trail.indexOf("node");
    if (at >= 0 && trail[at + 1])
        return `the --node ${trail[at + 1]} module`;
    if (trail[0] === "settings" && trail[1] === "graph")
        return "the --graph module";
    const last = trail.at(-1) ?? "file";
    return trail[0] === "settings" ? `the --${last} file` : `the ${last} file`;
}
const shortList = (ids) => `${ids.slice(0, 5).join(", ")}${ids.length > 5 ? `, … (${ids.length} in all)` : ""}`;
/**
 * Locks `outDir` for this process (`lockOutDir`: a second run on the same folder refuses, naming the first), then
 * creates `outDir/run.json`, or with `resume` checks that the run there was started with the same `keys` (models,
 * settings, ...) and, given `identity`, the same code, the same content of its questions and no fewer questions; a
 * resume that adds questions records them. Every refusal is one line and leaves the folder as it was. A directory
 * holding a run is never reused without `resume`. `release()` frees the lock (also freed on exit and on a stop
 * signal); `io` hears of a stale lock taken over. `refresh`: keys a resume that adds questions records anew (eval's
 * `selection`).
 */
export function prepareOutDir(outDir, expected, resume, keys, ctx = { command: "run" }) {
    fs.mkdirSync(outDir, { recursive: true });
    const lock = lockOutDir(outDir, ctx.command);
    if (lock.note)
        ctx.io?.stderr(`sqlmend ${ctx.command}: ${outDir}: ${lock.note}\n`);
    try {
        return { ...readOrCreateRun(outDir, expected, resume, keys, ctx), release: lock.release };
    }
    catch (error) {
        lock.release();
        throw error;
    }
}
function readOrCreateRun(outDir, expected, resume, keys, ctx) {
    const runFile = path.join(outDir, RUN_FILE);
    const identity = ctx.identity ? { code: ctx.identity.code, questionHashes: ctx.identity.questions } : {};
    if (fs.existsSync(runFile)) {
        if (!resume)
            throw new UserError(`${outDir} already holds a run: pass --resume to continue it, or choose another --out`);
        let previous;
        try {
            previous = JSON.parse(fs.readFileSync(runFile, "utf8"));
        }
        catch (error) {
            throw new UserError(`${runFile}: unreadable (${firstLineOf(error)})`);
        }
        const newRun = "start a new run with another --out";
        if (ctx.identity) {
            const code = ctx.identity.code;
            if (previous.code?.sha256 !== code.sha256 || previous.code?.version !== code.version) {
                throw new UserError(`--resume: ${outDir}: sqlmend's code changed since the run started (${describeCode(previous.code)}; now ${describeCode(code)}): finish it with the code it started with, or ${newRun}`);
            }
        }
        for (const key of keys) {
            const { same, changed } = sameRecorded(previous[key], expected[key], [key]);
            if (changed) {
                const where = changed.now.path ?? changed.before.path;
                throw new UserError(`--resume: ${outDir}: ${fileLabel(changed.trail)}${where ? ` ${where}` : ""} changed since the run started (sha256 ${changed.before.sha256.slice(0, 12)}…, now ${changed.now.sha256.slice(0, 12)}…): resume with it as it was, or ${newRun}`);
            }
            if (!same) {
                throw new UserError(`--resume: ${outDir} holds a run with ${key} ${JSON.stringify(previous[key] ?? null)}, not ${JSON.stringify(expected[key])}; resume with the same, or choose another --out`);
            }
        }
        const before = previous.questionHashes;
        if (ctx.identity && before) {
            const now = ctx.identity.questions;
            const skipped = (hash) => hash?.startsWith("skipped:") ?? false;
            const changed = Object.keys(before).filter((id) => id in now && now[id] !== before[id] && !skipped(now[id]) && !skipped(before[id]));
            if (changed.length) {
                throw new UserError(`--resume: ${outDir}: question${changed.length === 1 ? "" : "s"} ${shortList(changed)} changed since the run started (text, database, evidence or gold SQL): ${newRun}`);
            }
            const dropped = Object.keys(before).filter((id) => !(id in now));
            if (dropped.length) {
                throw new UserError(`--resume: ${outDir} holds ${Object.keys(before).length} questions and this selection leaves out ${dropped.length} of them (${shortList(dropped)}): a resume may add questions, never drop them; resume with the same or a larger --limit/--ids, or ${newRun}`);
            }
        }
        if (ctx.identity && (!before || Object.keys(ctx.identity.questions).some((id) => !(id in before)))) {
            // More questions (or a run.json from before questions were recorded): recorded before any of them runs.
            const grown = { ...previous, ...Object.fromEntries((ctx.refresh ?? []).map((k) => [k, expected[k]])), questionHashes: { ...before, ...ctx.identity.questions } };
            writeAtomically(runFile, `${JSON.stringify(grown, null, 2)}\n`);
            return grown;
        }
        return previous;
    }
    const created = { runId: lazyCrypto().randomUUID().slice(0, 8), ...expected, ...identity, startedAt: new Date().toISOString() };
    writeAtomically(runFile, `${JSON.stringify(created, null, 2)}\n`);
    return created;
}
