/**
 * Benchmark layouts on disk: which splits a Spider or BIRD directory holds (question file and databases folder), and
 * where a question's database file is found (a layout's folder, a user's `--db-dir` roots).
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
export const isDir = (p) => existsSync(p) && statSync(p).isDirectory();
export const isFile = (p) => existsSync(p) && statSync(p).isFile();
/** Where a layout keeps each split: its question file and its databases folder. */
export const SPLIT_FILES = {
    spider: {
        dev: { file: "dev.json", dbFolder: "database" },
        train: { file: "train_spider.json", dbFolder: "database" },
        test: { file: "test.json", dbFolder: "test_database" },
    },
    bird: {
        dev: { file: "dev.json", dbFolder: "dev_databases" },
        train: { file: "train.json", dbFolder: "train_databases" },
        minidev: { file: "mini_dev_sqlite.json", dbFolder: "dev_databases" },
    },
};
/** The splits of a layout whose question file and databases folder are both there. */
export function splitsPresent(dir, layout) {
    return Object.entries(SPLIT_FILES[layout])
        .filter(([, f]) => isFile(path.join(dir, f.file)) && isDir(path.join(dir, f.dbFolder)))
        .map(([split]) => split);
}
/** Which layout a directory holds, or undefined. */
export function detectLayout(dir) {
    if (splitsPresent(dir, "spider").length)
        return "spider";
    if (splitsPresent(dir, "bird").length)
        return "bird";
    return undefined;
}
export const LOOKED_FOR = "looked for database/ with dev.json or train_spider.json, test_database/ with test.json, " +
    "dev_databases/ with dev.json or mini_dev_sqlite.json, or train_databases/ with train.json";
/** A layout's databases folder: `<folder>/<db_id>/<db_id>.sqlite`. */
export const layoutDbs = (root, dbFolder, descriptions) => (dbId) => {
    const rel = `${dbFolder}/${dbId}/${dbId}.sqlite`;
    const descriptionDir = path.join(root, dbFolder, dbId, "database_description");
    return { path: path.join(root, rel), rel, ...(descriptions && isDir(descriptionDir) ? { descriptionDir } : {}) };
};
/** A user's folder: `DIR/<db_id>.sqlite`, else `DIR/<db_id>/<db_id>.sqlite`. */
export const ownDbs = (dir) => (dbId) => {
    const flat = path.join(dir, `${dbId}.sqlite`);
    const nested = path.join(dir, dbId, `${dbId}.sqlite`);
    const descriptionDir = path.join(dir, dbId, "database_description");
    const found = isFile(flat) ? flat : nested;
    return { path: found, rel: `${dbId}.sqlite or ${dbId}/${dbId}.sqlite in ${dir}`, ...(isDir(descriptionDir) ? { descriptionDir } : {}) };
};
/** Several roots, searched in order (a set with databases of its own beside a benchmark's): the first that has it. */
export const firstOf = (lookups) => (dbId) => {
    const found = lookups.map((lookup) => lookup(dbId));
    return { ...(found.find((d) => isFile(d.path)) ?? found[0]), rel: found.map((d) => d.rel).join(", or ") };
};
/**
 * `--db-dir` roots: one folder, or several joined by the path delimiter (":" here; ";" on Windows) and searched in
 * order. A folder whose name holds the delimiter is taken whole.
 */
export function dbRoots(dbDir) {
    if (isDir(dbDir) || !dbDir.includes(path.delimiter))
        return [path.resolve(dbDir)];
    return dbDir.split(path.delimiter).filter(Boolean).map((d) => path.resolve(d));
}
