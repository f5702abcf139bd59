import fs from "node:fs";
import path from "node:path";
import { z } from "zod";
import { UserError } from "../../core/errors.js";
/**
 * A fixed set of candidates per question (Table 3, A.8: every correction variant corrects *the same* nine candidates):
 * `sqlmend memo candidates` writes it from a memo-sql run (each candidate's SQL as its writer wrote it), and
 * memo-refine `--candidates FILE` corrects those instead of the one initial SQL.
 */
export const CANDIDATES_KIND = "sqlmend-memo-candidates";
export const CandidateSetsSchema = z.object({
    kind: z.literal(CANDIDATES_KIND),
    /** Where the candidates came from (the run directory, its graph and settings), for the reader. */
    source: z.record(z.string(), z.unknown()).default({}),
    questions: z.record(z.string(), z.object({ dbId: z.string(), question: z.string(), candidates: z.array(z.object({ id: z.string(), sql: z.string() })).min(1) })),
});
const loaded = new Map();
/** Reads (once per process and file) and validates a candidates file; a bad file fails in one line. */
export function loadCandidateSets(file, cwd = process.cwd()) {
    const resolved = path.resolve(cwd, file);
    let sets = loaded.get(resolved);
    if (sets)
        return sets;
    let text;
    try {
        text = fs.readFileSync(resolved, "utf8");
    }
    catch {
        throw new UserError(`candidates file not found: ${file} (write one with 'sqlmend memo candidates')`);
    }
    let parsed;
    try {
        parsed = CandidateSetsSchema.safeParse(JSON.parse(text));
    }
    catch (error) {
        throw new UserError(`${file}: not JSON (${error.message.split("\n")[0]})`);
    }
    if (!parsed.success)
        throw new UserError(`${file}: not a candidates file: ${parsed.error.issues[0]?.path.join(".")}: ${parsed.error.issues[0]?.message}`);
    loaded.set(resolved, (sets = parsed.data));
    return sets;
}
