import type { Benchmark } from "../../state/question.ts";
import { lazyCrypto } from "../../tools/hash.ts";
import { defineOptions } from "../../core/options.ts";
import { opt, optionUsageError, optionUserError } from "../../core/config.ts";

/**
 * `--sample N --sample-seed S`: their defaults and what run.json records (`sampleOf`) come from this table (their
 * options in run-config.ts's `SELECTION_CONFIG`). `--sample-seed` is not `--seed`: that one
 * is the model's sampling seed, which `--repeats` varies per repeat; the questions stay the same in every repeat.
 */
export const SAMPLE_OPTIONS = defineOptions({
  sample: { type: "int", default: 0, min: 1, help: "N questions, each database its share (seeded; after --ids/--limit); 0: all" },
  sampleSeed: { type: "int", default: 1, min: 0, help: "the sample's seed: the same seed, the same questions" },
});

/** How `--sample` picks, as run.json records it. */
export const SAMPLE_METHOD = "stratified by database: largest-remainder shares, each database's questions by sha256(seed:id)";

/** A seeded sample as run.json records it (and --resume compares). */
export interface SampleSpec {
  n: number;
  seed: number;
  method: string;
}

/** A run's `sample` and `sampleSeed` as run.json records them, checked; undefined without `sample`. */
export function sampleOf(config: { sample?: number | undefined; sampleSeed?: number | undefined }): SampleSpec | undefined {
  if (config.sample === undefined) {
    if (config.sampleSeed !== undefined) throw optionUsageError`${opt("sampleSeed")} S goes with ${opt("sample")} N (the seed of a stratified sample)`;
    return undefined;
  }
  return { n: config.sample, seed: config.sampleSeed ?? SAMPLE_OPTIONS.sampleSeed.default, method: SAMPLE_METHOD };
}


/**
 * The questions to run: `--ids`, then `--limit` (counted in file order, skipped ones included, so a subset is
 * stable), then `--sample` (stratified over what is left, skipped ones included: a missing database is said, not
 * sampled around).
 */
export function selectQuestions(bench: Benchmark, ids: readonly string[] | undefined, limit: number | undefined, sample?: SampleSpec) {
  const wanted = ids?.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
  let questions = bench.questions;
  let skipped = bench.skipped;
  if (wanted?.length) {
    const known = new Set([...questions.map((q) => q.id), ...skipped.map((q) => q.id)]);
    const unknown = wanted.filter((id) => !known.has(id));
    if (unknown.length) throw optionUserError`${opt("ids")}: no question with id ${unknown.slice(0, 5).join(", ")} in ${bench.name}`;
    const set = new Set(wanted);
    questions = questions.filter((q) => set.has(q.id));
    skipped = skipped.filter((q) => set.has(q.id));
  }
  const keepOnly = (keep: Set<string>) => {
    questions = questions.filter((q) => keep.has(q.id));
    skipped = skipped.filter((q) => keep.has(q.id));
  };
  if (limit !== undefined) keepOnly(new Set(fileOrder([...questions, ...skipped]).slice(0, limit).map((q) => q.id)));
  if (sample) keepOnly(new Set(stratifiedSample([...questions, ...skipped], sample.n, sample.seed).map((q) => q.id)));
  return { questions, skipped };
}

/**
 * N items stratified by `dbId`: each database gets N × its share, rounded by largest remainder (ties to the database
 * name), and within a database the items with the smallest sha256(seed:id) — so the pick depends on the seed and
 * the ids, never on the order the file lists them in. N at least the items: all of them.
 */
export function stratifiedSample<T extends { id: string; dbId: string }>(items: readonly T[], n: number, seed: number): T[] {
  if (n >= items.length) return [...items];
  const byDb = new Map<string, T[]>();
  for (const item of items) byDb.set(item.dbId, [...(byDb.get(item.dbId) ?? []), item]);
  const dbs = [...byDb.keys()].sort();
  const exact = dbs.map((db) => (n * byDb.get(db)!.length) / items.length);
  const quota = exact.map(Math.floor);
  let left = n - quota.reduce((a, b) => a + b, 0);
  const byRemainder = dbs.map((_, i) => i).sort((a, b) => exact[b]! - quota[b]! - (exact[a]! - quota[a]!) || (dbs[a]! < dbs[b]! ? -1 : 1));
  for (const i of byRemainder) {
    if (left-- <= 0) break;
    quota[i]!++;
  }
  const rank = (item: T) => lazyCrypto().createHash("sha256").update(`${seed}:${item.id}`).digest("hex");
  return dbs.flatMap((db, i) => byDb.get(db)!.map((item) => [rank(item), item] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, quota[i]).map(([, item]) => item));
}

/** Benchmark order: the questions' places in their file; without them numeric ids sort as numbers, others keep their order. */
export function fileOrder<T extends { id: string; position?: number | undefined }>(items: T[]): T[] {
  if (items.every((q) => q.position !== undefined)) return [...items].sort((a, b) => a.position! - b.position!);
  const numeric = items.every((q) => /^\d+$/.test(q.id));
  return numeric ? [...items].sort((a, b) => Number(a.id) - Number(b.id)) : items;
}
