import type { Command } from "../shared/command.ts";
/** `sqlmend memo`: each subcommand's flags, then its body in `runner/memo-memory.ts` (loaded when one runs, not for --help). */
export declare const memoCommand: Command;
