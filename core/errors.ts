/**
 * Errors and their one-line form, shared by the library and the launcher. They live below both so that a program
 * importing sqlmend's tools does not pull in the CLI.
 */

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
