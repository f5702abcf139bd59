/**
 * Errors and their one-line form, shared by the library and the launcher. They live below both so that a program
 * importing sqlmend's tools does not pull in the CLI.
 */
/** A node returned what its slot's contract forbids (`checkedNode`, graphs/spec.ts): the message names the slot. */
export class SlotContractError extends Error {
    constructor(message) {
        super(message);
        this.name = "SlotContractError";
    }
}
/**
 * The first non-empty line of an error's message: what a one-line error report shows. Several parallel branches
 * failing in one step reach us as one AggregateError (LangGraph's "Multiple errors occurred during superstep 9"),
 * which says nothing: the line is then the first slot error among them (else the first error) and how many failed.
 */
export const firstLineOf = (error) => {
    const branches = branchErrorsOf(error);
    if (branches.length > 1) {
        const lead = branches.find((e) => e instanceof SlotContractError) ?? branches[0];
        return `${lineOf(lead)} (${branches.length} parallel branches failed)`;
    }
    return lineOf(branches[0] ?? error);
};
const lineOf = (error) => ((error instanceof Error ? error.message : String(error)).split("\n").find((line) => line.trim()) ?? "unknown error").trim().slice(0, 500);
/** The errors an AggregateError holds, nested ones flattened, in order; [] for any other error. */
function branchErrorsOf(error) {
    if (!(error instanceof AggregateError))
        return [];
    return error.errors.flatMap((inner) => {
        const nested = branchErrorsOf(inner);
        return nested.length ? nested : [inner];
    });
}
/** A failure the user can fix: printed as one line, no stack trace. */
export class UserError extends Error {
    exitCode;
    constructor(message, exitCode = 1) {
        super(message);
        this.exitCode = exitCode;
        this.name = "UserError";
    }
}
/** Wrong flags or arguments: printed with the command's usage, exit status 2. */
export class UsageError extends UserError {
    constructor(message) {
        super(message, 2);
        this.name = "UsageError";
    }
}
/** Checkpoint data that does not read (a file changed or truncated): one line; a run restarts that thread. */
export class DamagedCheckpointError extends UserError {
    constructor(message) {
        super(message);
        this.name = "DamagedCheckpointError";
    }
}
/** Our reader's damage, or SQLite's own word that the file is corrupt or not a database. */
export const isDamagedCheckpoint = (error) => {
    if (error instanceof DamagedCheckpointError)
        return true;
    const code = error?.code;
    return (typeof code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(code)) || /database disk image is malformed|file is not a database/i.test(firstLineOf(error));
};
