/**
 * Errors and their one-line form, shared by the library and the launcher. They live below both so that a program
 * importing sqlmend's tools does not pull in the CLI.
 */
/** A node returned what its slot's contract forbids (`checkedNode`, graphs/spec.ts): the message names the slot. */
export declare class SlotContractError extends Error {
    constructor(message: string);
}
/**
 * The first non-empty line of an error's message: what a one-line error report shows. Several parallel branches
 * failing in one step reach us as one AggregateError (LangGraph's "Multiple errors occurred during superstep 9"),
 * which says nothing: the line is then the first slot error among them (else the first error) and how many failed.
 */
export declare const firstLineOf: (error: unknown) => string;
/** A failure the user can fix: printed as one line, no stack trace. */
export declare class UserError extends Error {
    readonly exitCode: number;
    constructor(message: string, exitCode?: number);
}
/** Wrong flags or arguments: printed with the command's usage, exit status 2. */
export declare class UsageError extends UserError {
    constructor(message: string);
}
/** Checkpoint data that does not read (a file changed or truncated): one line; a run restarts that thread. */
export declare class DamagedCheckpointError extends UserError {
    constructor(message: string);
}
/** Our reader's damage, or SQLite's own word that the file is corrupt or not a database. */
export declare const isDamagedCheckpoint: (error: unknown) => boolean;
