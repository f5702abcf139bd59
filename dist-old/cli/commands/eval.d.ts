import type { Command } from "../shared/command.ts";
/** `sqlmend eval`: its flags, then the run API's eval (`runner/eval-run.ts`). */
export declare const evalCommand: Command;
