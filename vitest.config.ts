import path from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const ROOT = path.dirname(fileURLToPath(import.meta.url));

/**
 * The slowest files and their seconds in CI (two files at a time on two cores). A fresh clone has no record of past
 * runs, so vitest starts larger files first, and a small slow one (scaffold.e2e, 18 s) started among the last left a
 * worker idle at the end. A file not named here keeps vitest's order, after these.
 */
export const SLOWEST_SECONDS: Record<string, number> = {
  "test/docs-commands.test.ts": 41,
  "test/scaffold.e2e.test.ts": 18,
  "test/report-html.test.ts": 16,
  "test/view.e2e.test.ts": 14,
  "test/magic-guideline.test.ts": 12,
  "test/launcher.e2e.test.ts": 11,
  "test/call-counts.test.ts": 11,
  "test/shared-sqlite.test.ts": 11,
  "test/benchmark.test.ts": 11,
  "test/langgraph-server.test.ts": 11,
  "test/experiment.e2e.test.ts": 10,
  "test/run-identity.e2e.test.ts": 10,
  "test/determinism.e2e.test.ts": 10,
  "test/score-official.test.ts": 10,
  "test/signals.e2e.test.ts": 9,
  "test/startup.test.ts": 9,
  "test/slot-contracts.test.ts": 9,
  "test/module-anywhere.e2e.test.ts": 8,
};

/** Longest first: the last files to start are short ones, so both workers finish together. */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const seconds = (file: TestSpecification) => SLOWEST_SECONDS[path.relative(ROOT, file.moduleId).split(path.sep).join("/")] ?? 0;
    // Array sort is stable: the rest keep vitest's order.
    return (await super.sort(files)).sort((a, b) => seconds(b) - seconds(a));
  }
}

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Tests start child processes and local servers; two cores are the norm.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Two files at once on two cores: most tests wait on child processes and local servers, so the second worker
    // fills the first's waits (one worker took over six minutes).
    maxWorkers: 2,
    sequence: { sequencer: SlowestFirst },
  },
});
