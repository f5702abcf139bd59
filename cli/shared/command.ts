/** What every launcher command implements. Commands print through `io`, so tests can capture output. */
export interface CliIO {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** True when stderr is a terminal (progress bars redraw in place). */
  isTTY?: boolean;
}

export interface Command {
  name: string;
  usage: string;
  /** Extra `--help` text that depends on the arguments (ask/eval: the named graph's own options). */
  helpFor?(argv: string[], io: CliIO): string | Promise<string>;
  /** Returns the process exit status. Throw UserError for a one-line failure. */
  run(argv: string[], io: CliIO): Promise<number>;
}

export { firstLineOf, UsageError, UserError } from "../../core/errors.ts";

export const defaultIO = (): CliIO => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  isTTY: process.stderr.isTTY,
});

export { commandLine, maskSecrets } from "../../core/secrets.ts";
