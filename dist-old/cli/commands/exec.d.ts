import { type Command } from "../shared/command.ts";
import type { SqlValue } from "../../tools/sqlite/types.ts";
/** One cell as JSON text, lossless (see the usage text). */
export declare function encodeCell(value: SqlValue): string;
export declare const execCommand: Command;
