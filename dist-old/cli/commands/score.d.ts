import type { Command } from "../shared/command.ts";
/** `sqlmend score`: its flags, then the run API's score (`runner/score-run.ts`). */
export declare const scoreCommand: Command;
