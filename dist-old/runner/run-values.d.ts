/** A command's options table: flag name → parseArgs kind (`multiple` for repeatable flags). */
export type FlagTable = Record<string, {
    type: "string" | "boolean";
    multiple?: boolean;
}>;
/** Option values as a command's flags hold them: by flag name, strings, booleans and lists of strings. */
export type FlagValues = Record<string, string | boolean | string[] | undefined>;
/** The values parseArgs gives for a flag table, typed by it. */
export type FlagValuesOf<T> = {
    [K in keyof T]?: T[K] extends {
        multiple: true;
    } ? string[] : T[K] extends {
        type: "boolean";
    } ? boolean : string;
};
/**
 * The run API's options (camelCase names of a command's flags, typed values) as the command's flag values: what the
 * launcher would have parsed from the same command line, so a script and the launcher run the very same code. A name
 * the command does not take is an error naming it; `options` holds the graph's own options (camelCase, as the graph
 * declares them); a record value (`node: { generate: "./my.ts" }`, `roleModel: { critic: "gpt-4o" }`) becomes
 * `NAME=VALUE` items of a repeatable flag.
 */
export declare function flagValuesOf(api: string, given: Record<string, unknown>, table: FlagTable, graphOptions?: Record<string, unknown>): FlagValues;
/**
 * The command line that does what these values do (`sqlmend eval r3 --bench … --limit 5`), secrets masked: what
 * report.md shows as the run's command, whether the launcher or a script started it.
 */
export declare function commandLineOf(command: string, positionals: string[], values: FlagValues): string;
