import fs from "node:fs";
import { opt, OptionText, optionText, optionUserError } from "../../core/config.ts";
import path from "node:path";
import { lazyCrypto } from "../../tools/hash.ts";
import type { RunIO } from "./progress.ts";
import { firstLineOf, UserError } from "../../core/errors.ts";
import { type CodeIdentity, codeChange, sameCode } from "../../tools/version.ts";
import { writeAtomically } from "./atomic-files.ts";
import { lockOutDir } from "./out-dir-lock.ts";

// An output directory's run file, run.json: what the run is (settings, code, questions) and the check `--resume` makes.

const RUN_FILE = "run.json";

export interface RunFileBase {
  runId: string;
  startedAt: string;
}

/**
 * What a run is, beside its settings: the code that runs it and the questions it answers, by content. `--resume`
 * refuses other code, a question whose content changed, and a selection that leaves out questions the run holds.
 */
export interface RunIdentity {
  /** sqlmend's code (tools/version.ts `codeIdentity`). */
  code: CodeIdentity;
  /** The selected questions (skipped ones included): their content hashes by id (`questionHashes`). */
  questions: Record<string, string>;
}

/**
 * A question's content as a run knows it: text, database id, evidence and gold SQL, as 16 hex digits of sha256
 * (enough to tell an edit, not a security boundary). A skipped question (its database missing) is `skipped:` and its
 * database id: it has no answer to protect, so it may become a question (the database added) or the reverse.
 */
export function questionHash(q: { question?: string; dbId: string; evidence?: string; goldSql?: string | undefined; reason?: string }): string {
  if (q.question === undefined) return `skipped:${q.dbId}`;
  const content = JSON.stringify([q.question, q.dbId, q.evidence ?? "", q.goldSql ?? null]);
  return lazyCrypto().createHash("sha256").update(content).digest("hex").slice(0, 16);
}

/** `questionHash` of every selected question, skipped ones included, by id. */
export function questionHashes(questions: readonly { id: string; dbId: string; question?: string; evidence?: string; goldSql?: string | undefined; reason?: string }[]): Record<string, string> {
  return Object.fromEntries(questions.map((q) => [q.id, questionHash(q)]));
}

/**
 * A path as run.json records it: relative to the run folder (forward slashes) when it lies inside, so a copied or
 * moved run still names its own files; absolute otherwise.
 */
export function runPath(file: string, runDir: string): string {
  const rel = path.relative(runDir, file);
  return rel && !rel.startsWith("..") && !path.isAbsolute(rel) ? rel.split(path.sep).join("/") : file;
}

/**
 * A file another run wrote, which a resumed run reads again and which may grow meanwhile (a corrector's `--initial`
 * predictions): its absolute path and its path from the run folder. `--resume` takes either as the same file, so a
 * run moved alone (the absolute path holds) or with its neighbours (an experiment folder: the relative one holds)
 * resumes.
 */
export function runPlace(file: string, runDir: string): { path: string; fromRun: string } {
  return { path: file, fromRun: path.relative(runDir, file).split(path.sep).join("/") };
}

type FileIdentity = { path?: string; sha256: string; files?: Record<string, string> };
const isFileIdentity = (v: unknown): v is FileIdentity => typeof v === "object" && v !== null && typeof (v as FileIdentity).sha256 === "string";
type Place = { path: string; fromRun: string };
const isPlace = (v: unknown): v is Place => typeof v === "object" && v !== null && typeof (v as Place).fromRun === "string" && typeof (v as Place).path === "string";

/** The first value that differs: where (the keys down to it) and its recorded and current values. */
type Difference = { trail: string[]; before: unknown; now: unknown };
type Recorded = { same: boolean; changed?: { trail: string[]; before: FileIdentity; now: FileIdentity }; differs?: Difference };

/**
 * Whether a recorded value and this run's are the same for `--resume`: files by content (their sha256, wherever they
 * are now), places by either path, the rest as JSON. The first file whose content differs is returned in `changed`;
 * otherwise the first plain value that differs, in `differs`, so a refusal names it.
 */
function sameRecorded(before: unknown, now: unknown, trail: string[] = []): Recorded {
  if (isFileIdentity(before) && isFileIdentity(now)) return before.sha256 === now.sha256 ? { same: true } : { same: false, changed: { trail, before, now } };
  if (isPlace(before) && isPlace(now)) return before.fromRun === now.fromRun || before.path === now.path ? { same: true } : { same: false, differs: { trail, before: before.path, now: now.path } };
  const bothObjects = typeof before === "object" && before !== null && typeof now === "object" && now !== null && Array.isArray(before) === Array.isArray(now);
  if (!bothObjects) return JSON.stringify(before ?? null) === JSON.stringify(now ?? null) ? { same: true } : { same: false, differs: { trail, before, now } };
  const a = before as Record<string, unknown>;
  const b = now as Record<string, unknown>;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => a[k] !== undefined || b[k] !== undefined));
  let result: Recorded = { same: true };
  for (const key of keys) {
    const inner = sameRecorded(a[key], b[key], [...trail, key]);
    if (inner.changed) return inner;
    if (!inner.same && result.same) result = inner;
  }
  return result;
}

/** A recorded value in a refusal: short JSON (a long one cut, saying so). */
function shortValue(value: unknown): string {
  const text = value === undefined ? "(not set)" : JSON.stringify(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

/** How a refusal names a value by where run.json keeps it: `settings.min-rows` → "option min-rows". */
function valueLabel(trail: string[]): OptionText | string {
  if (trail[0] === "settings" && trail.length >= 2) return optionText`option ${optionOf(trail.slice(1).join("."))}`;
  return trail.join(".") || "value";
}

/** A setting's name (run.json keeps options by flag name) as an option a refusal names: `--min-rows`, or `minRows` to a script. */
const optionOf = (flag: string) => opt(flag.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()));

/** Which files of a module's import closure changed (added, removed or edited), by their path from the module. */
function changedFiles(before: FileIdentity, now: FileIdentity): string[] {
  if (!before.files || !now.files) return [];
  const names = new Set([...Object.keys(before.files), ...Object.keys(now.files)]);
  return [...names].filter((name) => before.files![name] !== now.files![name]).map((name) => (!(name in before.files!) ? `${name} (added)` : !(name in now.files!) ? `${name} (no longer imported)` : name));
}

/** Whether two runs recorded the same value (`sameRecorded`): what `--resume` and `sqlmend merge` compare. */
export const sameRunValue = (a: unknown, b: unknown): boolean => sameRecorded(a, b).same;

/** How the refusal names a file by where run.json keeps it: `settings.node.generate` → "the --node generate module". */
function fileLabel(trail: string[]): OptionText | string {
  const at = trail.indexOf("node");
  if (at >= 0 && trail[at + 1]) return optionText`the ${opt("node")} ${trail[at + 1]} module`;
  if (trail[0] === "settings" && trail[1] === "graph") return optionText`the ${opt("graph")} module`;
  const last = trail.at(-1) ?? "file";
  return trail[0] === "settings" ? optionText`the ${optionOf(last)} file` : `the ${last} file`;
}

const shortList = (ids: string[]) => `${ids.slice(0, 5).join(", ")}${ids.length > 5 ? `, … (${ids.length} in all)` : ""}`;

/**
 * Locks `outDir` for this process (`lockOutDir`: a second run on the same folder refuses, naming the first), then
 * creates `outDir/run.json`, or with `resume` checks that the run there was started with the same `keys` (models,
 * settings, ...) and, given `identity`, the same code, the same content of its questions and no fewer questions; a
 * resume that adds questions records them. Every refusal is one line and leaves the folder as it was. A directory
 * holding a run is never reused without `resume`. `release()` frees the lock (also freed on exit and on a stop
 * signal); `io` hears of a stale lock taken over. `refresh`: keys a resume that adds questions records anew (eval's
 * `selection`).
 */
export function prepareOutDir<T extends Record<string, unknown>>(
  outDir: string,
  expected: T,
  resume: boolean,
  keys: (keyof T & string)[],
  ctx: { command: string; io?: RunIO; identity?: RunIdentity; refresh?: (keyof T & string)[] } = { command: "run" },
): T & RunFileBase & { release: () => void } {
  fs.mkdirSync(outDir, { recursive: true });
  const lock = lockOutDir(outDir, ctx.command);
  if (lock.note) ctx.io?.stderr(`sqlmend ${ctx.command}: ${outDir}: ${lock.note}\n`);
  try {
    return { ...readOrCreateRun(outDir, expected, resume, keys, ctx), release: lock.release };
  } catch (error) {
    lock.release();
    throw error;
  }
}

function readOrCreateRun<T extends Record<string, unknown>>(
  outDir: string,
  expected: T,
  resume: boolean,
  keys: (keyof T & string)[],
  ctx: { identity?: RunIdentity; refresh?: (keyof T & string)[] },
): T & RunFileBase {
  const runFile = path.join(outDir, RUN_FILE);
  const identity = ctx.identity ? { code: ctx.identity.code, questionHashes: ctx.identity.questions } : {};
  if (fs.existsSync(runFile)) {
    if (!resume) throw optionUserError`${outDir} already holds a run: pass ${opt("resume")} to continue it, or choose another ${opt("out")}`;
    let previous: T & RunFileBase & { code?: CodeIdentity; questionHashes?: Record<string, string> };
    try {
      previous = JSON.parse(fs.readFileSync(runFile, "utf8")) as typeof previous;
    } catch (error) {
      throw new UserError(`${runFile}: unreadable (${firstLineOf(error)})`);
    }
    const newRun = optionText`start a new run with another ${opt("out")}`;
    if (ctx.identity) {
      const code = ctx.identity.code;
      if (!sameCode(previous.code, code)) {
        throw optionUserError`${opt("resume")}: ${outDir}: sqlmend's code changed since the run started (${codeChange(previous.code, code)}): finish it with the code it started with, or ${newRun}`;
      }
    }
    for (const key of keys) {
      const { same, changed, differs } = sameRecorded(previous[key], expected[key], [key]);
      if (changed) {
        const where = changed.now.path ?? changed.before.path;
        const files = changedFiles(changed.before, changed.now);
        throw optionUserError`${opt("resume")}: ${outDir}: ${fileLabel(changed.trail)}${where ? ` ${where}` : ""} changed since the run started${files.length ? ` (${files.slice(0, 3).join(", ")}${files.length > 3 ? `, … ${files.length} files` : ""})` : ""} (sha256 ${changed.before.sha256.slice(0, 12)}…, now ${changed.now.sha256.slice(0, 12)}…): resume with it as it was, or ${newRun}`;
      }
      if (!same) {
        const what = differs ? optionText`${valueLabel(differs.trail)} was ${shortValue(differs.before)}, now ${shortValue(differs.now)}` : `${key} differs`;
        throw optionUserError`${opt("resume")}: ${outDir}: ${what}: resume with the same, or choose another ${opt("out")}`;
      }
    }
    const before = previous.questionHashes;
    if (ctx.identity && before) {
      const now = ctx.identity.questions;
      const skipped = (hash: string | undefined) => hash?.startsWith("skipped:") ?? false;
      const changed = Object.keys(before).filter((id) => id in now && now[id] !== before[id] && !skipped(now[id]) && !skipped(before[id]));
      if (changed.length) {
        throw optionUserError`${opt("resume")}: ${outDir}: question${changed.length === 1 ? "" : "s"} ${shortList(changed)} changed since the run started (text, database, evidence or gold SQL): ${newRun}`;
      }
      const dropped = Object.keys(before).filter((id) => !(id in now));
      if (dropped.length) {
        throw optionUserError`${opt("resume")}: ${outDir} holds ${Object.keys(before).length} questions and this selection leaves out ${dropped.length} of them (${shortList(dropped)}): a resume may add questions, never drop them; resume with the same or a larger ${opt("limit")}/${opt("ids")}, or ${newRun}`;
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
