/**
 * minibench: the project's own small benchmark in BIRD layout (train and dev splits over three
 * SQLite databases built from the SQL scripts in sql/). Tests and the README demo use it.
 */
import { lazyCrypto } from "../../hash.js";
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, symlink, writeFile } from "node:fs/promises";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
// The sources (SQL scripts, questions, descriptions, this file), also when this module runs compiled from
// dist/tools/benchmarks/minibench/: the source hash, and so the build, is then the same in both modes.
const HERE = ((dir) => {
    const source = path.resolve(dir, "../../../../tools/benchmarks/minibench");
    return path.basename(path.resolve(dir, "../../..")) === "dist" && existsSync(source) ? source : dir;
})(path.dirname(fileURLToPath(import.meta.url)));
export const MINIBENCH_DATABASES = ["school", "shop", "music"];
const SPLITS = ["dev", "train"];
const STAMP = ".minibench-stamp";
async function listFiles(dir) {
    const out = [];
    for (const entry of await readdir(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory())
            out.push(...(await listFiles(full)));
        else
            out.push(full);
    }
    return out.sort();
}
/** Hash of every source file (scripts, questions, descriptions, this builder). */
export async function minibenchSourceHash() {
    const hash = lazyCrypto().createHash("sha256");
    for (const file of await listFiles(HERE)) {
        hash.update(path.relative(HERE, file).split(path.sep).join("/"));
        hash.update("\0");
        hash.update(await readFile(file));
        hash.update("\0");
    }
    return hash.digest("hex").slice(0, 24);
}
const readable = (name) => name.replace(/_/g, " ").toLowerCase();
/** One tables.json entry (Spider / BIRD format) read from the database itself. */
function describeDatabase(db, dbId) {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY rowid").all().map((r) => r.name);
    const columnNamesOriginal = [[-1, "*"]];
    const columnTypes = ["text"];
    const primaryKeys = [];
    const index = new Map();
    tables.forEach((table, t) => {
        const cols = db.prepare(`PRAGMA table_info("${table}")`).all();
        const pk = [];
        for (const col of cols) {
            index.set(`${table}.${col.name}`.toLowerCase(), columnNamesOriginal.length);
            if (col.pk)
                pk.push(columnNamesOriginal.length);
            columnNamesOriginal.push([t, col.name]);
            columnTypes.push((col.type || "text").toLowerCase());
        }
        if (pk.length === 1)
            primaryKeys.push(pk[0]);
        else if (pk.length > 1)
            primaryKeys.push(pk);
    });
    const foreignKeys = [];
    for (const table of tables) {
        for (const fk of db.prepare(`PRAGMA foreign_key_list("${table}")`).all()) {
            const from = index.get(`${table}.${fk.from}`.toLowerCase());
            const to = index.get(`${fk.table}.${fk.to ?? ""}`.toLowerCase());
            if (from !== undefined && to !== undefined)
                foreignKeys.push([from, to]);
        }
    }
    return {
        db_id: dbId,
        table_names_original: tables,
        table_names: tables.map(readable),
        column_names_original: columnNamesOriginal,
        column_names: columnNamesOriginal.map(([t, n]) => [t, n === "*" ? "*" : readable(n)]),
        column_types: columnTypes,
        primary_keys: primaryKeys,
        foreign_keys: foreignKeys,
    };
}
/** Writes the whole minibench layout (BIRD style) into targetDir, overwriting what is there. */
export async function buildMinibench(targetDir) {
    const work = path.join(targetDir, ".build");
    await rm(work, { recursive: true, force: true });
    await mkdir(work, { recursive: true });
    const tables = [];
    const { default: Sqlite } = await import("better-sqlite3"); // loaded only to build, not on every start
    for (const dbId of MINIBENCH_DATABASES) {
        const file = path.join(work, `${dbId}.sqlite`);
        const db = new Sqlite(file);
        try {
            db.exec(await readFile(path.join(HERE, "sql", `${dbId}.sql`), "utf8"));
            tables.push(describeDatabase(db, dbId));
        }
        finally {
            db.close();
        }
    }
    for (const split of SPLITS) {
        const questions = JSON.parse(await readFile(path.join(HERE, `${split}.json`), "utf8"));
        await writeFile(path.join(targetDir, `${split}.json`), `${JSON.stringify(questions, null, 2)}\n`);
        await writeFile(path.join(targetDir, `${split}_gold.sql`), questions.map((q) => `${q.SQL}\t${q.db_id}\n`).join(""));
        await writeFile(path.join(targetDir, `${split}_tables.json`), `${JSON.stringify(tables, null, 2)}\n`);
        for (const dbId of MINIBENCH_DATABASES) {
            const dbDir = path.join(targetDir, `${split}_databases`, dbId);
            await mkdir(dbDir, { recursive: true });
            await copyFile(path.join(work, `${dbId}.sqlite`), path.join(dbDir, `${dbId}.sqlite`));
            const descriptions = path.join(HERE, "description", dbId);
            if (existsSync(descriptions)) {
                const out = path.join(dbDir, "database_description");
                await mkdir(out, { recursive: true });
                for (const csv of await readdir(descriptions))
                    await copyFile(path.join(descriptions, csv), path.join(out, csv));
            }
        }
    }
    await rm(work, { recursive: true, force: true });
}
const stampOf = (dir) => {
    try {
        return readFileSync(path.join(dir, STAMP), "utf8").trim();
    }
    catch {
        return undefined;
    }
};
const codeOf = (error) => error?.code ?? "";
const unique = () => `${process.pid}-${lazyCrypto().randomBytes(6).toString("hex")}`;
/** Temp directories of builds that died (killed processes) are removed after this long. */
const ABANDONED_MS = 60 * 60 * 1000;
/**
 * Builds minibench unless targetDir already holds a build of the current sources.
 *
 * Every interleaving of concurrent callers (threads of one process or several processes) is safe, and readers never
 * see a missing or half-built benchmark: each caller builds in a temp directory of its own, then renames it to
 * `.<name>-builds/<source hash>`. rename(2) refuses a non-empty destination, so exactly one build of a hash lands;
 * the losers keep the winner's and delete only their own temp. targetDir is a symlink to that build, replaced by
 * renaming a new symlink over it (atomic), so nobody ever deletes a finished build in use.
 */
export async function ensureMinibench(targetDir) {
    const hash = await minibenchSourceHash();
    if (stampOf(targetDir) === hash)
        return;
    const parent = path.dirname(targetDir);
    const builds = path.join(parent, `.${path.basename(targetDir)}-builds`);
    const finished = path.join(builds, hash);
    await mkdir(builds, { recursive: true });
    if (stampOf(finished) !== hash)
        await buildOnce(finished, hash, builds);
    await pointAt(targetDir, finished, hash);
    await removeOldBuilds(builds, hash);
}
/** Builds into a temp directory and renames it to `finished`, unless another caller's build got there first. */
async function buildOnce(finished, hash, builds) {
    const temp = path.join(builds, `.tmp-${unique()}`);
    try {
        await buildMinibench(temp);
        await writeFile(path.join(temp, STAMP), `${hash}\n`);
        for (let attempt = 0;; attempt++) {
            try {
                await rename(temp, finished);
                return;
            }
            catch (error) {
                if (stampOf(finished) === hash)
                    return; // the winner's build: keep it
                const occupied = ["ENOTEMPTY", "EEXIST", "EPERM", "EACCES"].includes(codeOf(error));
                if (!occupied || attempt >= 3)
                    throw error;
                // Something that is not a finished build (its stamp was edited or removed) holds the name: move it away.
                const aside = path.join(builds, `.old-${unique()}`);
                try {
                    await rename(finished, aside);
                }
                catch {
                    continue; // gone already, or replaced by another caller: look again
                }
                if (stampOf(aside) === hash) {
                    // A finished build landed between the check and the move: put it back (ours is then the loser).
                    try {
                        await rename(aside, finished);
                        return;
                    }
                    catch {
                        // a third caller's build took the name meanwhile: that one is finished too
                    }
                }
                await rm(aside, { recursive: true, force: true });
            }
        }
    }
    finally {
        await rm(temp, { recursive: true, force: true });
    }
}
/** Makes targetDir a symlink to `finished` by renaming a fresh symlink over it (readers see the old or the new). */
async function pointAt(targetDir, finished, hash) {
    const parent = path.dirname(targetDir);
    // Windows links directories as junctions, which need an absolute target.
    const linkTarget = process.platform === "win32" ? finished : path.relative(parent, finished);
    for (let attempt = 0;; attempt++) {
        if (stampOf(targetDir) === hash)
            return;
        const link = path.join(parent, `.${path.basename(targetDir)}.link-${unique()}`);
        await symlink(linkTarget, link, "junction");
        try {
            await rename(link, targetDir);
            return;
        }
        catch (error) {
            await rm(link, { force: true });
            // targetDir is a real directory (a build by an older sqlmend, or a stale copy): move it away and retry.
            const isDirectory = ["EISDIR", "ENOTEMPTY", "EEXIST", "ENOTDIR", "EPERM"].includes(codeOf(error));
            if (!isDirectory || attempt >= 3)
                throw error;
            const aside = path.join(parent, `.${path.basename(targetDir)}.old-${unique()}`);
            try {
                await rename(targetDir, aside);
            }
            catch {
                continue;
            }
            await rm(aside, { recursive: true, force: true });
        }
    }
}
/** Builds of other sources, and temp directories of builds that died long ago. */
async function removeOldBuilds(builds, hash) {
    for (const name of await readdir(builds).catch(() => [])) {
        if (name === hash)
            continue;
        const full = path.join(builds, name);
        const abandoned = name.startsWith(".") && Date.now() - ((await stat(full).catch(() => undefined))?.mtimeMs ?? Date.now()) > ABANDONED_MS;
        // The link no longer points at another hash's build; a process still reading it keeps its open files.
        if (!name.startsWith(".") || abandoned)
            await rm(full, { recursive: true, force: true }).catch(() => { });
    }
}
