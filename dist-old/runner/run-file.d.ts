import type { RunIO } from "./progress.ts";
import { type CodeIdentity } from "../tools/version.ts";
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
export declare function questionHash(q: {
    question?: string;
    dbId: string;
    evidence?: string;
    goldSql?: string | undefined;
    reason?: string;
}): string;
/** `questionHash` of every selected question, skipped ones included, by id. */
export declare function questionHashes(questions: readonly {
    id: string;
    dbId: string;
    question?: string;
    evidence?: string;
    goldSql?: string | undefined;
    reason?: string;
}[]): Record<string, string>;
/**
 * A path as run.json records it: relative to the run folder (forward slashes) when it lies inside, so a copied or
 * moved run still names its own files; absolute otherwise.
 */
export declare function runPath(file: string, runDir: string): string;
/**
 * A file another run wrote, which a resumed run reads again and which may grow meanwhile (a corrector's `--initial`
 * predictions): its absolute path and its path from the run folder. `--resume` takes either as the same file, so a
 * run moved alone (the absolute path holds) or with its neighbours (an experiment folder: the relative one holds)
 * resumes.
 */
export declare function runPlace(file: string, runDir: string): {
    path: string;
    fromRun: string;
};
/** Whether two runs recorded the same value (`sameRecorded`): what `--resume` and `sqlmend merge` compare. */
export declare const sameRunValue: (a: unknown, b: unknown) => boolean;
/**
 * Locks `outDir` for this process (`lockOutDir`: a second run on the same folder refuses, naming the first), then
 * creates `outDir/run.json`, or with `resume` checks that the run there was started with the same `keys` (models,
 * settings, ...) and, given `identity`, the same code, the same content of its questions and no fewer questions; a
 * resume that adds questions records them. Every refusal is one line and leaves the folder as it was. A directory
 * holding a run is never reused without `resume`. `release()` frees the lock (also freed on exit and on a stop
 * signal); `io` hears of a stale lock taken over. `refresh`: keys a resume that adds questions records anew (eval's
 * `selection`).
 */
export declare function prepareOutDir<T extends Record<string, unknown>>(outDir: string, expected: T, resume: boolean, keys: (keyof T & string)[], ctx?: {
    command: string;
    io?: RunIO;
    identity?: RunIdentity;
    refresh?: (keyof T & string)[];
}): T & RunFileBase & {
    release: () => void;
};
