/**
 * A usage error is one useful line, the command's synopsis and where the rest is (issue 31, point 8): `experiment`
 * printed its 80-line usage after the line that mattered. In-process, through the launcher's main.
 */
import { describe, expect, it } from "vitest";
import { runCli } from "./support/cli.ts";

describe("usage errors", () => {
  it.each([
    ["experiment", ["experiment"], /^sqlmend experiment: name a recipe/],
    ["experiment", ["experiment", "correctors", "--bench", "x", "--out", "y", "--repeats", "0"], /^sqlmend experiment: --repeats takes a whole number >= 1/],
    ["eval", ["eval", "baseline"], /^sqlmend eval: --bench DIR is required/],
    ["score", ["score", "--bench", "x"], /^sqlmend score: --pred FILE\|gold is required/],
  ])("%s: the error, the synopsis, the --help hint — a few lines, not the whole usage", async (command, argv, first) => {
    const run = await runCli(argv, process.cwd());
    expect(run.code).toBe(2);
    const lines = run.err.trimEnd().split("\n");
    expect(lines[0]).toMatch(first);
    expect(lines[1]).toMatch(new RegExp(`^Usage: sqlmend ${command}`));
    expect(lines.at(-1)).toBe(`Run 'sqlmend ${command} --help' for every option.`);
    expect(lines.length).toBeLessThanOrEqual(8);
  });
});
