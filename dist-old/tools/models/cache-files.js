/**
 * The cache files of the data directory, seen from outside a run (`sqlmend cache`): what they hold and removing part
 * of it. Light on purpose (SQLite only, no LangChain): a run's own use of them is response-cache.ts and embeddings.ts.
 */
import fs from "node:fs";
import { isSqliteBusy, openSharedSqlite } from "../sqlite/shared-file.js";
/** Model replies (response-cache.ts) and embedding vectors (embeddings.ts), in `<data dir>/`. */
export const RESPONSE_CACHE_FILE = "responses.sqlite";
export const VECTOR_CACHE_FILE = "embeddings.sqlite";
const BUSY_MS = 10_000;
/** A file's bytes with its WAL (what a run wrote but SQLite has not folded into the file yet). */
const bytesOf = (file) => [file, `${file}-wal`].reduce((n, f) => n + (fs.existsSync(f) ? fs.statSync(f).size : 0), 0);
const hasTable = (db, table) => !!db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(table);
export function describeCacheFiles(responsesFile, vectorsFile) {
    const responses = { file: responsesFile, exists: fs.existsSync(responsesFile), bytes: bytesOf(responsesFile), replies: 0, threads: 0, byModel: [] };
    if (responses.exists) {
        const db = openSharedSqlite(responsesFile, { busyMs: BUSY_MS });
        try {
            if (hasTable(db, "responses")) {
                responses.byModel = db
                    .prepare("SELECT model, count(*) AS replies, sum(input_tokens) AS inputTokens, sum(output_tokens) AS outputTokens, min(created_at) AS first, max(created_at) AS last FROM responses GROUP BY model ORDER BY replies DESC, model")
                    .all();
                responses.replies = responses.byModel.reduce((n, m) => n + m.replies, 0);
            }
            if (hasTable(db, "uses"))
                responses.threads = db.prepare("SELECT count(DISTINCT scope) FROM uses").pluck().get();
        }
        finally {
            db.close();
        }
    }
    const vectors = { file: vectorsFile, exists: fs.existsSync(vectorsFile), bytes: bytesOf(vectorsFile), vectors: 0, byModel: [] };
    if (vectors.exists) {
        const db = openSharedSqlite(vectorsFile, { busyMs: BUSY_MS });
        try {
            if (hasTable(db, "vectors")) {
                vectors.byModel = db.prepare("SELECT model, count(*) AS vectors FROM vectors GROUP BY model ORDER BY vectors DESC, model").all();
                vectors.vectors = vectors.byModel.reduce((n, m) => n + m.vectors, 0);
            }
        }
        finally {
            db.close();
        }
    }
    return { responses, vectors };
}
/**
 * Removes what the filter names (filters combine: a model's replies made before a day), then gives the space back
 * unless another process has the file open (`compacted` false). A removed reply is asked of the model again on the
 * next run that needs it.
 */
export function clearCacheFiles(responsesFile, vectorsFile, filter) {
    const where = [];
    const args = [];
    if (filter.model !== undefined) {
        where.push("model = ?");
        args.push(filter.model);
    }
    if (filter.before !== undefined) {
        where.push("created_at < ?");
        args.push(filter.before);
    }
    if (!filter.all && !where.length)
        throw new Error("clearCacheFiles: name what to remove (all, a model, or a day)");
    let replies = 0;
    let vectors = 0;
    let compacted = true;
    const compact = (db) => {
        try {
            db.exec("VACUUM");
        }
        catch (error) {
            if (!isSqliteBusy(error))
                throw error;
            compacted = false; // another run has the file open: the rows are gone, the space comes back later
        }
    };
    if (fs.existsSync(responsesFile)) {
        const db = openSharedSqlite(responsesFile, { busyMs: BUSY_MS });
        try {
            if (hasTable(db, "responses")) {
                replies = db.prepare(`DELETE FROM responses${filter.all ? "" : ` WHERE ${where.join(" AND ")}`}`).run(...(filter.all ? [] : args)).changes;
                // The occurrence counters only matter beside replies: with none left, they go too.
                if (filter.all && hasTable(db, "uses"))
                    db.prepare("DELETE FROM uses").run();
            }
            compact(db);
        }
        finally {
            db.close();
        }
    }
    // Vectors carry no time: a filter by day leaves them.
    if (fs.existsSync(vectorsFile) && (filter.all || (filter.model !== undefined && filter.before === undefined))) {
        const db = openSharedSqlite(vectorsFile, { busyMs: BUSY_MS });
        try {
            if (hasTable(db, "vectors")) {
                const byModel = db.prepare("DELETE FROM vectors WHERE model = ? OR model LIKE ? ESCAPE '\\'");
                vectors = (filter.all ? db.prepare("DELETE FROM vectors").run() : byModel.run(filter.model, `${filter.model.replace(/[\\%_]/g, "\\$&")}@%`)).changes;
            }
            compact(db);
        }
        finally {
            db.close();
        }
    }
    return { replies, vectors, compacted };
}
