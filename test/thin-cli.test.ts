/**
 * The CLI is thin (issue 27, point 2): a command is its flag table, usage and a call of the run API; no command
 * imports another command or builds an argv to run one (experiment ran its rows through `evalCommand.run([...])`,
 * splicing flags out of argv). Static: the sources are read, not run.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const COMMANDS = path.join(ROOT, "cli", "commands");

/** A command module's problems: imports of sibling command modules, and runs of a command through argv. */
export function thinCliProblems(dir: string): string[] {
  const problems: string[] = [];
  for (const file of fs.readdirSync(dir).filter((f) => /\.(ts|js)$/.test(f) && f !== "index.ts")) {
    const text = fs.readFileSync(path.join(dir, file), "utf8").replace(/\/\/.*$/gm, "").replace(/\/\*[\s\S]*?\*\//g, "");
    for (const [, spec] of text.matchAll(/(?:from\s*|import\s*\(\s*)["'](\.\/[^"']+)["']/g)) problems.push(`${file} imports the command ${spec}`);
    for (const [call] of text.matchAll(/\b\w*[cC]ommand\.run\s*\(/g)) problems.push(`${file} runs a command through argv (${call.trim()}…)`);
    for (const [call] of text.matchAll(/\bmain\s*\(\s*\[/g)) problems.push(`${file} re-enters the launcher (${call.trim()}…)`);
  }
  return problems;
}

describe("a thin CLI", () => {
  it("no command imports another command or runs one through an argv", () => {
    expect(thinCliProblems(COMMANDS)).toEqual([]);
  });

  it("the check catches a sibling import, a dynamic one, and a command run through argv", () => {
    const dir = fs.mkdtempSync(path.join(fs.realpathSync(process.env.TMPDIR ?? "/tmp"), "thin-cli-"));
    try {
      fs.writeFileSync(path.join(dir, "a.ts"), 'import { evalCommand } from "./eval.ts";\nexport const x = () => evalCommand.run(["r3"], io);\n');
      fs.writeFileSync(path.join(dir, "b.ts"), 'export const y = async () => (await import("./magic.ts")).magicCommand;\n// import { z } from "./c.ts";\n');
      expect(thinCliProblems(dir)).toEqual(["a.ts imports the command ./eval.ts", "a.ts runs a command through argv (evalCommand.run(…)", "b.ts imports the command ./magic.ts"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
