import type { Command } from "../shared/command.ts";
/** `sqlmend experiment`: its own flags and those it forwards to every run, then the run API (`runner/experiment-run.ts`). */
export declare const experimentCommand: Command;
