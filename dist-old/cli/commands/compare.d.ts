import type { Command } from "../shared/command.ts";
/** `sqlmend compare`: its flags, then the run API's compare (`runner/compare-run.ts`). */
export declare const compareCommand: Command;
