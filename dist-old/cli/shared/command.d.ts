import type { CliIO } from "../../core/io.ts";
export type { CliIO };
export { defaultIO } from "../../core/io.ts";
/** What every launcher command implements. Commands print through `io`, so tests can capture output. */
export interface Command {
    name: string;
    usage: string;
    /** Extra `--help` text that depends on the arguments (ask/eval: the named graph's own options). */
    helpFor?(argv: string[], io: CliIO): string | Promise<string>;
    /** Returns the process exit status. Throw UserError for a one-line failure. */
    run(argv: string[], io: CliIO): Promise<number>;
}
export { firstLineOf, UsageError, UserError } from "../../core/errors.ts";
export { commandLine, maskSecrets } from "../../core/secrets.ts";
