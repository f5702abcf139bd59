import type { Command } from "../shared/command.ts";
export declare const threadsCommand: Command;
export declare const inspectCommand: Command;
