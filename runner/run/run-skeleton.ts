import path from "node:path";
import type { CliIO } from "../../core/io.ts";
import type { Benchmark, Question, SkippedQuestion } from "../../state/question.ts";
import type { BenchmarkSource } from "../../tools/benchmarks/benchmark.ts";
import type { Split } from "../../state/splits.ts";
import type { OpenedCheckpointer } from "../../storage/checkpoints.ts";
import { codeIdentity } from "../../tools/version.ts";
import { fallbackNotes } from "./progress.ts";
import { benchmarkOf } from "./output-dir-flags.ts";
import type { SelectionConfig } from "./run-config.ts";
import { prepareOutDir, questionHashes } from "./run-json.ts";
import { type SampleSpec, sampleOf, selectQuestions } from "./question-sample.ts";

/**
 * The skeleton every run command shares, written once: its questions from the selection flags, then, for a run in an
 * output folder, what it holds while it runs — where its fallbacks are said, its checkpoint store, its folder (run.json
 * written or checked by --resume, the lock) — closed whatever happens. eval, magic guideline and the TS-SQL audit run
 * inside it; memo build selects its questions the same way (its folder is a memory file with a lock of its own).
 */

/** A run's benchmark and its selected questions (`bench`/`questions`/`dbDir`, `split`, `ids`, `limit`, `sample`). */
export interface RunQuestions {
  bench: Benchmark;
  source: BenchmarkSource;
  benchDir: string | undefined;
  split: string;
  questions: Question[];
  skipped: SkippedQuestion[];
  /** `--sample N --sample-seed S` as run.json records it, or null. */
  sample: SampleSpec | null;
}

export async function runQuestionsOf(config: SelectionConfig, io: CliIO, defaultSplit: Split): Promise<RunQuestions> {
  const sample = sampleOf(config);
  const { bench, source, benchDir } = await benchmarkOf(config, io, defaultSplit);
  const { questions, skipped } = selectQuestions(bench, config.ids, config.limit, sample);
  return { bench, source, benchDir, split: bench.split, questions, skipped, sample: sample ?? null };
}

/** What a run in an output folder holds while it runs. */
export interface RunFolder {
  outDir: string;
  /** What fell back during the run (the response cache off, a damaged checkpoint file set aside): report.md lists them. */
  notes: string[];
  /** Says a fallback on stderr as it happens, and keeps it for the report. */
  warn: (line: string) => void;
  checkpoints: OpenedCheckpointer;
  /**
   * Takes the folder: run.json written, or checked against `record` by --resume on `keys`, sqlmend's code and the
   * questions' contents (a resume may add questions, never drop or change one); the lock held until the run closes.
   */
  claim<T extends Record<string, unknown>>(record: T, keys: (keyof T & string)[], identity: { questions: (Question | SkippedQuestion)[]; refresh?: (keyof T & string)[] }): ReturnType<typeof prepareOutDir<T>>;
}

export async function inRunFolder<R>(
  command: string,
  values: { out?: string | undefined; checkpoints?: string | undefined; resume?: boolean | undefined },
  io: CliIO,
  body: (folder: RunFolder) => Promise<R>,
): Promise<R> {
  const outDir = path.resolve(io.cwd, values.out!);
  const { notes, warn } = fallbackNotes(io, command);
  // The checkpoint store (and with it LangGraph's savers) loads once the run's flags have passed their checks.
  const { openReadyCheckpointer } = await import("../../storage/checkpoints.ts");
  const checkpoints = await openReadyCheckpointer(values.checkpoints, io.env, io.cwd, { onDamagedFile: warn });
  const code = await codeIdentity();
  let release = () => {};
  try {
    return await body({
      outDir,
      notes,
      warn,
      checkpoints,
      claim(record, keys, identity) {
        const file = prepareOutDir(outDir, record, values.resume ?? false, keys, {
          command,
          io,
          identity: { code, questions: questionHashes(identity.questions) },
          ...(identity.refresh ? { refresh: identity.refresh } : {}),
        });
        release = file.release;
        return file;
      },
    });
  } finally {
    release();
    checkpoints.close();
  }
}
