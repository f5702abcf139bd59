import type { Command } from "../shared/command.ts";
export declare const mergeCommand: Command;
