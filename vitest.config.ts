import { defineConfig } from "vitest/config";

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
  },
});
