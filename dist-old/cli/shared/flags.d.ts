import { parseArgs, type ParseArgsConfig } from "node:util";
type Parsed<T extends NonNullable<ParseArgsConfig["options"]>> = ReturnType<typeof parseArgs<{
    args: string[];
    options: T;
    allowPositionals: true;
    strict: true;
}>>;
/** parseArgs with flag errors turned into UsageError. */
export declare function parseFlags<T extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: T): Parsed<T>;
export {};
