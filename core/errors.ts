/**
 * Errors and their one-line form, shared by the library and the launcher. They live below both so that a program
 * importing sqlmend's tools does not pull in the CLI.
 */

/** A node returned what its slot's contract forbids (`checkedNode`, graphs/spec.ts): the message names the slot. */
export class SlotContractError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SlotContractError";
  }
}

/**
 * The first non-empty line of an error's message: what a one-line error report shows. Several parallel branches
 * failing in one step reach us as one AggregateError (LangGraph's "Multiple errors occurred during superstep 9"),
 * which says nothing: the line is then the first slot error among them (else the first error) and how many failed.
 */
export const firstLineOf = (error: unknown): string => {
  const branches = branchErrorsOf(error);
  if (branches.length > 1) {
    const lead = branches.find((e) => e instanceof SlotContractError) ?? branches[0];
    return `${lineOf(lead)} (${branches.length} parallel branches failed)`;
  }
  return lineOf(branches[0] ?? error);
};

const lineOf = (error: unknown): string =>
  ((error instanceof Error ? error.message : String(error)).split("\n").find((line) => line.trim()) ?? "unknown error").trim().slice(0, 500);

/** The errors an AggregateError holds, nested ones flattened, in order; [] for any other error. */
function branchErrorsOf(error: unknown): unknown[] {
  if (!(error instanceof AggregateError)) return [];
  return error.errors.flatMap((inner) => {
    const nested = branchErrorsOf(inner);
    return nested.length ? nested : [inner];
  });
}

/** A failure the user can fix: printed as one line, no stack trace. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
    this.name = "UserError";
  }
}

/** Wrong flags or arguments: printed with the command's usage, exit status 2. */
export class UsageError extends UserError {
  constructor(message: string) {
    super(message, 2);
    this.name = "UsageError";
  }
}

/** Checkpoint data that does not read (a file changed or truncated): one line; a run restarts that thread. */
export class DamagedCheckpointError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = "DamagedCheckpointError";
  }
}

/** Our reader's damage, or SQLite's own word that the file is corrupt or not a database. */
export const isDamagedCheckpoint = (error: unknown): boolean => {
  if (error instanceof DamagedCheckpointError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  return (typeof code === "string" && /^SQLITE_(CORRUPT|NOTADB)/.test(code)) || /database disk image is malformed|file is not a database/i.test(firstLineOf(error));
};

/** A thrown error as a run keeps it (results.jsonl's `errorDetail`, the thread's error write, `inspect`). */
export interface ErrorDetail {
  /** The slot (graph node) that threw, when known. */
  slot?: string;
  /** The error's class name (`TypeError`, `SlotContractError`, ...). */
  errorClass: string;
  message: string;
  /** The stack, the frames of the user's own modules first. */
  stack?: string;
  /** The first frame in a user's module (file:line:column), when user code threw. */
  at?: string;
}

const SLOT_MARK = Symbol.for("sqlmend.slot");

/** Marks an error with the slot whose node threw it (the first mark wins: the innermost node). */
export function markSlot(error: unknown, slot: string): void {
  if (!error || typeof error !== "object" || SLOT_MARK in error) return;
  try {
    Object.defineProperty(error, SLOT_MARK, { value: slot, enumerable: false });
  } catch {
    // a frozen error object: its slot is then read from the checkpoint
  }
}

/** The slot `markSlot` recorded on an error, if any. */
export const slotOf = (error: unknown): string | undefined =>
  error && typeof error === "object" && SLOT_MARK in error ? String((error as Record<symbol, unknown>)[SLOT_MARK]) : undefined;

/** The error a step's failure comes down to: the first slot error among parallel branches, else the first that is not an abort. */
export function leadErrorOf(error: unknown): unknown {
  const branches = branchErrorsOf(error);
  if (!branches.length) return error;
  return branches.find((e) => e instanceof SlotContractError) ?? branches.find((e) => !isAbort(e)) ?? branches[0];
}

/** A sibling branch cancelled because another failed: never the cause. */
export const isAbort = (error: unknown): boolean => (error as { name?: unknown } | null)?.name === "AbortError";

// This package's own folder: frames outside it (and outside any node_modules and Node's internals) are the user's.
const OWN_ROOT = (() => {
  try {
    const file = decodeURIComponent(new URL(import.meta.url).pathname);
    return file.slice(0, file.lastIndexOf("/core/") + 1);
  } catch {
    return "";
  }
})();

/** `file:line:column` of a stack frame line, or undefined. */
function frameLocation(frame: string): string | undefined {
  const m = /\(?((?:file:\/\/)?[^\s()]+?):(\d+):(\d+)\)?\s*$/.exec(frame.trim());
  if (!m) return undefined;
  const file = m[1]!.startsWith("file://") ? decodeURIComponent(m[1]!.slice(7)) : m[1]!;
  return `${file}:${m[2]}:${m[3]}`;
}

const isUserFrame = (location: string): boolean =>
  !location.startsWith("node:") && !location.includes("/node_modules/") && !location.startsWith("internal/") && !!OWN_ROOT && !location.startsWith(OWN_ROOT) && location.startsWith("/");

/**
 * What a run keeps of a thrown error: its class, message and slot (`markSlot`, or `slot` when the caller knows it),
 * and its stack with the user's own frames first (`at`: the first of them). Parallel branches: the lead error.
 */
export function errorDetailOf(thrown: unknown, slot?: string): ErrorDetail {
  const error = leadErrorOf(thrown);
  const isError = error instanceof Error;
  const message = isError ? error.message : String(error);
  const errorClass = isError ? (error.name && error.name !== "Error" ? error.name : error.constructor?.name || "Error") : typeof error;
  const detail: ErrorDetail = { errorClass, message: message.slice(0, 4000) };
  const named = slotOf(error) ?? slotOf(thrown) ?? slot;
  if (named) detail.slot = named;
  const stack = isError && typeof error.stack === "string" ? error.stack : undefined;
  if (stack) {
    const lines = stack.split("\n");
    const frames = lines.filter((l) => /^\s+at\s/.test(l));
    const user = frames.filter((f) => {
      const where = frameLocation(f);
      return where !== undefined && isUserFrame(where);
    });
    const rest = frames.filter((f) => !user.includes(f));
    detail.stack = [`${errorClass}: ${message.split("\n")[0]}`, ...user, ...rest].slice(0, 40).join("\n");
    if (user.length) detail.at = frameLocation(user[0]!);
  }
  return detail;
}
