import type { Command } from "../shared/command.ts";
export interface CommandEntry {
    name: string;
    /** One line for `sqlmend help`. */
    summary: string;
    /** Loaded on use, so `sqlmend exec` does not pay for LangChain's start-up. */
    load: () => Promise<Command>;
    /** SQL worker processes the command will want: the launcher starts them while the command's modules load. */
    sqlWorkers?: number | "cpus";
}
/** Every launcher command, in the order `sqlmend help` lists them. */
export declare const commands: CommandEntry[];
