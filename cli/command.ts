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
  /** Returns the process exit status. Throw UserError for a one-line failure. */
  run(argv: string[], io: CliIO): Promise<number>;
}

/** The first non-empty line of an error's message: what a one-line error report shows. */
export const firstLineOf = (error: unknown): string =>
  ((error instanceof Error ? error.message : String(error)).split("\n").find((line) => line.trim()) ?? "unknown error").trim().slice(0, 500);

/** A failure the user can fix: printed as one line, no stack trace. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "UserError";
  }
}

/** Wrong flags or arguments: printed with the command's usage, exit status 2. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message, 2);
    this.name = "UsageError";
  }
}

export const defaultIO = (): CliIO => ({
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  isTTY: process.stderr.isTTY,
});
