import { type CliIO } from "./shared/command.ts";
/** A usage text's synopsis: its lines up to the first blank one (`Usage: sqlmend eval GRAPH ...`). */
export declare const synopsisOf: (usage: string) => string;
export declare function main(argv: string[], given?: CliIO): Promise<number>;
