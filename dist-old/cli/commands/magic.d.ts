import type { Command } from "../shared/command.ts";
/** `sqlmend magic guideline`: its flags, then MAGIC's training below the CLI (`runner/magic-guideline.ts`). */
export declare const magicCommand: Command;
