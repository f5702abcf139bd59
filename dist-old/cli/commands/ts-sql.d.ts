import type { Command } from "../shared/command.ts";
/** `sqlmend ts-sql audit`: its flags, then the audit (`runner/ts-sql-audit.ts`). */
export declare const tsSqlCommand: Command;
