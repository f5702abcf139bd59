import { defineConfig, mergeConfig } from "vitest/config";
import base from "./vitest.config.ts";

/**
 * `npm run test:quick`: the edit–test loop's subset (meant to take under a minute on two idle cores). Every source
 * folder keeps tests here (test/quick-suite.test.ts checks it); what is left out runs whole commands end to end,
 * several processes or time limits, packs or builds, drives a browser or starts another program's server — `npm test`
 * runs those too.
 */
export const SLOW_TESTS = [
  "test/**/*.e2e.test.ts",
  "test/package.test.ts",
  "test/docs-commands.test.ts",
  "test/mock-model.test.ts",
  "test/report-html.test.ts",
  "test/guides.test.ts",
  "test/postgres-checkpoints.test.ts",
  "test/redis-cache.test.ts",
  "test/langgraph-server.test.ts",
  "test/served-graphs.test.ts",
  "test/startup.test.ts",
  "test/response-cache.test.ts",
  "test/byte-budget.test.ts",
  "test/shared-sqlite.test.ts",
  "test/score-bounds.test.ts",
  "test/library-host.test.ts",
  "test/memory-audit-api.test.ts",
  "test/call-counts.test.ts",
  "test/slot-contracts.test.ts",
  "test/score-official.test.ts",
  "test/benchmark.test.ts",
  "test/recursion-limit.test.ts",
];

// Two files at a time (vitest's default on two cores is one): the files left wait on SQLite workers and local servers
// as much as they compute.
export default mergeConfig(base, defineConfig({ test: { exclude: [...SLOW_TESTS, "**/node_modules/**"], maxWorkers: 2 } }));
