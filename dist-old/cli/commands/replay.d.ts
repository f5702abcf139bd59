import type { Command } from "../shared/command.ts";
/** `sqlmend replay`: its flags, then the run API's replay (`runner/replay-run.ts`). */
export declare const replayCommand: Command;
