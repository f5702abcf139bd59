import { z } from "zod";
/** The paper's reported figures for a run's row: where from (table, benchmark), with which model, and the numbers. */
export declare const PaperSchema: z.ZodObject<{
    source: z.ZodString;
    model: z.ZodString;
    row: z.ZodString;
    figures: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodNumber>>;
    note: z.ZodOptional<z.ZodString>;
}, z.core.$strict>;
export type Paper = z.infer<typeof PaperSchema>;
export declare const RecipeRunSchema: z.ZodObject<{
    kind: z.ZodDefault<z.ZodEnum<{
        "magic-guideline": "magic-guideline";
        eval: "eval";
        "memo-build": "memo-build";
        "memo-candidates": "memo-candidates";
    }>>;
    graph: z.ZodOptional<z.ZodString>;
    options: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodString, z.ZodNumber, z.ZodBoolean, z.ZodArray<z.ZodString>]>>>;
    initial: z.ZodOptional<z.ZodString>;
    correct: z.ZodOptional<z.ZodEnum<{
        errors: "errors";
        all: "all";
        incorrect: "incorrect";
    }>>;
    split: z.ZodOptional<z.ZodEnum<{
        dev: "dev";
        train: "train";
    }>>;
    from: z.ZodOptional<z.ZodString>;
    needs: z.ZodOptional<z.ZodString>;
    paper: z.ZodOptional<z.ZodObject<{
        source: z.ZodString;
        model: z.ZodString;
        row: z.ZodString;
        figures: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodNumber>>;
        note: z.ZodOptional<z.ZodString>;
    }, z.core.$strict>>;
}, z.core.$strict>;
export type RecipeRun = z.infer<typeof RecipeRunSchema>;
/**
 * The table to print first (table.md's "Table"): which runs as rows (default every eval run, recipe order) and which
 * columns: ex, initial-ex, wrong-to-right, right-to-wrong, tokens, calls, cost, failed, difficulty:NAME (EX on that
 * difficulty, e.g. difficulty:simple) or paper:FIGURE (the paper's figure of that name for the row).
 */
export declare const TableSpecSchema: z.ZodObject<{
    title: z.ZodOptional<z.ZodString>;
    rows: z.ZodOptional<z.ZodArray<z.ZodString>>;
    columns: z.ZodOptional<z.ZodArray<z.ZodString>>;
}, z.core.$strict>;
export type TableSpec = z.infer<typeof TableSpecSchema>;
export declare const RecipeSchema: z.ZodObject<{
    name: z.ZodString;
    description: z.ZodOptional<z.ZodString>;
    table: z.ZodOptional<z.ZodObject<{
        title: z.ZodOptional<z.ZodString>;
        rows: z.ZodOptional<z.ZodArray<z.ZodString>>;
        columns: z.ZodOptional<z.ZodArray<z.ZodString>>;
    }, z.core.$strict>>;
    reproduces: z.ZodOptional<z.ZodString>;
    runs: z.ZodRecord<z.ZodString, z.ZodObject<{
        kind: z.ZodDefault<z.ZodEnum<{
            "magic-guideline": "magic-guideline";
            eval: "eval";
            "memo-build": "memo-build";
            "memo-candidates": "memo-candidates";
        }>>;
        graph: z.ZodOptional<z.ZodString>;
        options: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodUnion<readonly [z.ZodString, z.ZodNumber, z.ZodBoolean, z.ZodArray<z.ZodString>]>>>;
        initial: z.ZodOptional<z.ZodString>;
        correct: z.ZodOptional<z.ZodEnum<{
            errors: "errors";
            all: "all";
            incorrect: "incorrect";
        }>>;
        split: z.ZodOptional<z.ZodEnum<{
            dev: "dev";
            train: "train";
        }>>;
        from: z.ZodOptional<z.ZodString>;
        needs: z.ZodOptional<z.ZodString>;
        paper: z.ZodOptional<z.ZodObject<{
            source: z.ZodString;
            model: z.ZodString;
            row: z.ZodString;
            figures: z.ZodDefault<z.ZodRecord<z.ZodString, z.ZodNumber>>;
            note: z.ZodOptional<z.ZodString>;
        }, z.core.$strict>>;
    }, z.core.$strict>>;
}, z.core.$strict>;
export type Recipe = z.infer<typeof RecipeSchema>;
/**
 * Parses a recipe file, YAML or JSON (JSON is YAML): one line naming the file, the line and the field of the first
 * problem (`recipe.yaml:7: runs.a.correct: ...`).
 */
export declare const parseRecipe: (text: string, source: string) => Recipe;
/** parseRecipe, with where each run is in the file (`:LINE`, for later checks' messages). */
export declare function readRecipe(text: string, source: string): {
    recipe: Recipe;
    lineOf: (at: PropertyKey[], key?: string) => string;
};
/** Checks a recipe object (a built-in, or a parsed file with `lineOf` naming where a path is). */
export declare function validateRecipe(raw: unknown, source: string, lineOf?: (at: PropertyKey[], key?: string) => string): Recipe;
/** The runs a run needs first: its initial run, its `from` run and every `{run:NAME}` in its options. */
export declare function dependenciesOf(recipe: Recipe, name: string): string[];
/**
 * `--hold RUN,...`: the runs made once (in repeat 1) and read by every repeat, e.g. the initial SQL, so the spread
 * of the others is theirs alone. What a held run reads must be held too: a held run never sees a repeat's output.
 */
export declare function heldRuns(recipe: Recipe, list: string): Set<string>;
/** Where each repeat's runs live: `OUT/<run>` for one repeat, `OUT/repeat-k/<run>` for several; a held run in repeat 1 only. */
export interface RepeatLayout {
    repeats: number;
    held: Set<string>;
    /** Repeat k's folder. */
    dirOf(k: number): string;
    /** Where repeat k finds run `run` (a held run: repeat 1's). */
    runDir(k: number, run: string): string;
    /** The repeats that make `run`: all of them, or [1] for a held run. */
    repeatsOf(run: string): number[];
}
export declare function repeatLayout(outDir: string, repeats: number, held?: Set<string>): RepeatLayout;
/** The `{set:NAME}` values a run needs (`--set NAME=VALUE`), in its options and its initial. */
export declare function setsOf(run: RecipeRun): string[];
/**
 * Why a run will not run with these `--set` values, or undefined: a method sqlmend lacks (`needs`), a `--set` value
 * not given, or a run it needs that will not run either. Such a run is listed, and its row printed with the reason.
 */
export declare function blockedReason(recipe: Recipe, name: string, sets: Record<string, string>): string | undefined;
/** The runs in an order where every run comes after those it needs (recipe order otherwise); a cycle is an error. */
export declare function orderRuns(recipe: Recipe, source?: string): string[];
/** `{run:NAME}` → NAME's output folder. */
export declare const resolveRefs: (value: string, outOf: (run: string) => string, sets?: Record<string, string>) => string;
