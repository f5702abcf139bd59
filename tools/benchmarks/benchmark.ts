/**
 * Loads a benchmark into `Benchmark` / `Question` (state/question.ts): a Spider or BIRD directory (layout detected), another
 * question file over a layout's databases, or own data (a question file over `--db-dir`); questions whose database is
 * missing are skipped with the reason.
 */
import path from "node:path";
import { UserError } from "../../core/errors.ts";
import { opt, optionUserError } from "../../core/config.ts";
import type { Benchmark, Question, SkippedQuestion, Split } from "../../state/question.ts";
import { spiderHardness } from "./hardness.ts";
import { type DbLookup, dbRoots, detectLayout, firstOf, isDir, isFile, layoutDbs, LOOKED_FOR, ownDbs, SPLIT_FILES, splitsPresent } from "./layouts.ts";
import { type AnyItem, type BirdItem, readAnyQuestions, readItems, readJsonArray, type SpiderItem } from "./question-files.ts";

export interface LoadOptions {
  /** Default dev; when the layout has no dev split, its only evaluation split (BIRD mini-dev, Spider test). */
  split?: Split;
  cacheDir?: string;
  /** A question file (Spider, BIRD, JSONL or CSV format) to read instead of the layout's own, over its databases. */
  questions?: string;
}

/** Questions from items, their databases looked up; missing ones skipped with the reason; duplicate ids refused. */
function toQuestions(file: string, items: AnyItem[], lookup: DbLookup, defaultHardness: boolean) {
  const questions: Question[] = [];
  const skipped: SkippedQuestion[] = [];
  const found = new Map<string, ReturnType<DbLookup> & { exists: boolean }>();
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const id = item.id ?? String(index);
    if (seen.has(id)) throw new UserError(`${file}: item ${index}: duplicate ${item.id !== undefined ? "id" : "question_id"} ${id}`);
    seen.add(id);
    let db = found.get(item.db_id);
    if (!db) {
      const d = lookup(item.db_id);
      found.set(item.db_id, (db = { ...d, exists: isFile(d.path) }));
    }
    if (!db.exists) {
      skipped.push({ id, dbId: item.db_id, reason: `database file not found: ${db.rel}`, position: index });
      return;
    }
    const difficulty = item.difficulty ?? (defaultHardness && item.gold ? spiderHardness(item.gold) : undefined);
    questions.push({
      id,
      dbId: item.db_id,
      dbPath: db.path,
      question: item.question,
      evidence: item.evidence ?? "",
      ...(item.gold ? { goldSql: item.gold } : {}),
      ...(difficulty ? { difficulty } : {}),
      ...(db.descriptionDir ? { descriptionDir: db.descriptionDir } : {}),
      position: index,
    });
  });
  return { questions, skipped };
}

/**
 * Reads a Spider or BIRD benchmark directory (layout detected), or with `questions` another question file over that
 * split's databases (Spider variants such as Spider-Syn, -DK, -Realistic). Throws UserError on bad files. With
 * `cacheDir`, the parsed question files are cached there (see readItems) so later loads skip parsing and hardness.
 */
export async function loadBenchmark(dir: string, opts: LoadOptions = {}): Promise<Benchmark> {
  const root = path.resolve(dir);
  if (!isDir(root)) throw new UserError(`${dir}: no such benchmark directory`);
  const layout = detectLayout(root);
  if (!layout) throw new UserError(`${dir}: not a Spider or BIRD benchmark (${LOOKED_FOR})`);
  const present = splitsPresent(root, layout);
  let split: Split = opts.split ?? "dev";
  // A release with one evaluation split and no dev.json (BIRD mini-dev, Spider's test alone) uses it by default.
  if (opts.split === undefined || (split === "dev" && !present.includes("dev"))) {
    const only = present.filter((s) => s !== "train");
    if (!present.includes("dev") && only.length === 1) split = only[0]!;
  }
  const where = SPLIT_FILES[layout][split];
  if (!where) {
    throw new UserError(`${dir}: the ${layout === "spider" ? "Spider" : "BIRD"} layout has no split ${split} (it has ${Object.keys(SPLIT_FILES[layout]).join(", ")})`);
  }
  if (!isDir(path.join(root, where.dbFolder)) || (!opts.questions && !isFile(path.join(root, where.file)))) {
    const name = layout === "spider" ? "Spider" : "BIRD";
    throw new UserError(`${dir}: ${name} layout has no ${opts.questions ? "" : `${where.file} with `}${where.dbFolder}/ for split ${split}`);
  }
  const lookup = layoutDbs(root, where.dbFolder, layout === "bird");
  const base = path.basename(root);
  if (opts.questions) {
    const file = path.resolve(opts.questions);
    if (!isFile(file)) throw new UserError(`${opts.questions}: no such question file`);
    const items = await readItems(file, opts.cacheDir, () => readAnyQuestions(file));
    // Another question file may use any of the layout's databases (Spider's test_database/ holds more than database/).
    const folders = [...new Set([where.dbFolder, ...Object.values(SPLIT_FILES[layout]).map((f) => f!.dbFolder)])].filter((f) => isDir(path.join(root, f)));
    const { questions, skipped } = toQuestions(file, items, firstOf(folders.map((f) => layoutDbs(root, f, layout === "bird"))), layout === "spider");
    return { dir: root, layout, split, name: `${base}/${path.basename(file)}`, questions, skipped, questionsFile: file, dbDir: path.join(root, where.dbFolder), customQuestions: true };
  }
  const file = path.join(root, where.file);
  let items: AnyItem[];
  if (layout === "spider") {
    const spider = await readItems(file, opts.cacheDir, async () =>
      (await readJsonArray(file, (s) => s.spider)).map(
        (item): SpiderItem => ({ db_id: item.db_id, question: item.question, query: item.query, hardness: spiderHardness(item.query) }),
      ),
    );
    items = spider.map((item) => ({ db_id: item.db_id, question: item.question, gold: item.query, difficulty: item.hardness ?? spiderHardness(item.query) }));
  } else {
    const bird = await readItems(file, opts.cacheDir, async () =>
      (await readJsonArray(file, (s) => s.bird)).map(
        (item): BirdItem => ({
          ...(item.question_id !== undefined ? { question_id: item.question_id } : {}),
          db_id: item.db_id,
          question: item.question,
          evidence: item.evidence ?? null,
          SQL: item.SQL,
          difficulty: item.difficulty ?? null,
        }),
      ),
    );
    const seen = new Map<string, number>();
    items = bird.map((item, index) => {
      let id = item.question_id === undefined ? String(index) : String(item.question_id);
      const times = (seen.get(id) ?? 0) + 1;
      seen.set(id, times);
      if (times > 1) {
        // Mini-dev's official scorer pairs by position, so its file may repeat a question_id: the repeat is its own question.
        if (split !== "minidev") throw new UserError(`${file}: item ${index}: duplicate question_id ${id}`);
        id = `${id}_${times}`;
        if (seen.has(id)) throw new UserError(`${file}: item ${index}: question_id ${item.question_id} repeated, and ${id} is taken`);
        seen.set(id, 1);
      }
      return { id, db_id: item.db_id, question: item.question, gold: item.SQL, ...(item.evidence ? { evidence: item.evidence } : {}), ...(item.difficulty ? { difficulty: item.difficulty } : {}) };
    });
  }
  const { questions, skipped } = toQuestions(file, items, lookup, false);
  return { dir: root, layout, split, name: `${base}/${split}`, questions, skipped, questionsFile: file, dbDir: path.join(root, where.dbFolder) };
}

/**
 * Your own data: a question file (`.jsonl`, `.csv` or a JSON array; fields `question`, `db_id`, optional `gold`,
 * `evidence`, `difficulty`, `id`) over a folder of databases, each `DIR/<db_id>.sqlite` or `DIR/<db_id>/<db_id>.sqlite`.
 */
export async function loadQuestionFile(questionsFile: string, dbDir: string, opts: { cacheDir?: string } = {}): Promise<Benchmark> {
  const file = path.resolve(questionsFile);
  const roots = dbRoots(dbDir);
  if (!isFile(file)) throw new UserError(`${questionsFile}: no such question file`);
  const notThere = roots.find((d) => !isDir(d));
  if (notThere) throw new UserError(`${roots.length > 1 ? notThere : dbDir}: no such database directory`);
  const items = await readItems(file, opts.cacheDir, () => readAnyQuestions(file));
  const { questions, skipped } = toQuestions(file, items, roots.length > 1 ? firstOf(roots.map(ownDbs)) : ownDbs(roots[0]!), false);
  const dir = roots[0]!;
  return { dir, layout: "own", split: "dev", name: path.basename(file), questions, skipped, questionsFile: file, dbDir: roots.join(path.delimiter), customQuestions: true };
}

/** Where a run's questions come from (what run.json records, so `--resume` and `merge` read them again). */
export interface BenchmarkSource {
  /** A layout directory (absolute), absent for own data. */
  bench?: string;
  split?: Split;
  questions?: string;
  dbDir?: string;
}

/** Loads what a source names: a layout (maybe with another question file) or own data. */
export async function loadSource(source: BenchmarkSource, opts: { cacheDir?: string } = {}): Promise<Benchmark> {
  if (source.dbDir) {
    if (!source.questions) throw optionUserError`${opt("dbDir")} needs ${opt("questions")} FILE (the questions to run on its databases)`;
    return loadQuestionFile(source.questions, source.dbDir, opts);
  }
  if (!source.bench) throw optionUserError`no benchmark: give ${opt("bench")} DIR, or ${opt("questions")} FILE ${opt("dbDir")} DIR`;
  return loadBenchmark(source.bench, { ...opts, ...(source.split ? { split: source.split } : {}), ...(source.questions ? { questions: source.questions } : {}) });
}
