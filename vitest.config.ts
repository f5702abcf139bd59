import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // Tests start child processes and local servers; two cores are the norm.
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
  },
});
