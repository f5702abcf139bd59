import type { Command } from "../command.ts";

/** Every launcher command, in the order `sqlmend help` lists them. */
export const commands: Command[] = [];
