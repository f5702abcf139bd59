/**
 * A graph's own knobs, declared once in its spec. The launcher derives from the declaration: the flags
 * (`--kebab-case` of the key), their `--help` lines, validation with one-line errors, the report's settings and
 * `--resume`'s check. A node reads them with `readOptions(defs, options)`: typed, defaults filled in.
 */
export type OptionDef = {
    type: "int";
    default: number;
    min?: number;
    max?: number;
    help: string;
    affectsAnswers?: boolean;
} | {
    type: "number";
    default: number;
    min?: number;
    max?: number;
    help: string;
    affectsAnswers?: boolean;
} | {
    type: "boolean";
    default: boolean;
    help: string;
    affectsAnswers?: boolean;
} | {
    type: "choice";
    choices: readonly string[];
    default: string;
    help: string;
    affectsAnswers?: boolean;
}
/** A free string such as a file path; `default` absent means "not set". */
 | {
    type: "string";
    default?: string;
    metavar?: string;
    help: string;
    affectsAnswers?: boolean;
    /** The launcher refuses to run the graph without it (one-line usage error). */
    required?: boolean;
    /** A file path: resolved against the working directory; the report and `--resume` record its sha256. */
    file?: boolean;
}
/** Comma-separated list. */
 | {
    type: "list";
    default: readonly string[];
    metavar?: string;
    help: string;
    affectsAnswers?: boolean;
};
export type OptionDefs = Record<string, OptionDef>;
type ValueOf<D> = D extends {
    type: "int" | "number";
} ? number : D extends {
    type: "boolean";
} ? boolean : D extends {
    type: "choice";
    choices: readonly (infer C)[];
} ? C : D extends {
    type: "list";
} ? string[] : D extends {
    type: "string";
    default: string;
} ? string : string | undefined;
export type OptionValues<Defs extends OptionDefs> = {
    [K in keyof Defs]: ValueOf<Defs[K]>;
};
/** Keeps the literal types of a declaration (choices, defaults) so `readOptions` is precisely typed. */
export declare const defineOptions: <const Defs extends OptionDefs>(defs: Defs) => Defs;
/** `maxReviewTurns` → `max-review-turns`. */
export declare const flagOf: (key: string) => string;
/** The declared options' values from a graph's build options, defaults filled in (for nodes and graph files). */
export declare function readOptions<Defs extends OptionDefs>(defs: Defs, options: Record<string, unknown> | undefined): OptionValues<Defs>;
/** parseArgs declarations for every option of the given graphs. */
export declare function optionFlags(defsList: OptionDefs[]): Record<string, {
    type: "string" | "boolean";
}>;
/** Parses and validates one option's flag value; undefined when the flag was not given. */
export declare function parseOption(key: string, def: OptionDef, raw: unknown): unknown;
/** The `--help` lines of a graph's options. */
export declare function optionsUsage(title: string, defs: OptionDefs | undefined): string;
export {};
