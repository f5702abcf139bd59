/**
 * A sandbox for model-written JavaScript (TS-SQL's test code): QuickJS compiled to WebAssembly.
 *
 * The code runs in a fresh QuickJS runtime per call. It sees plain data only: the test tables are passed in as one
 * JSON string and parsed inside, so no host object, function or prototype ever crosses over. The QuickJS build has
 * no std/os modules, no module loader, no timers and no console of the host: there is nothing to reach a file,
 * the network or the process with. A CPU deadline (interrupt handler), a memory limit and a stack limit bound the
 * run; the answer comes back as one JSON string, capped in size and validated here into a fixed shape.
 *
 * Runs on the calling thread: the interrupt handler and the memory limit stop a runaway script inside the
 * WebAssembly engine, and a fresh runtime per run means no state survives between runs, so a worker thread buys
 * nothing but start-up cost (measured in bench/sandbox.ts).
 */
import { getQuickJS, type QuickJSWASMModule, shouldInterruptAfterDeadline } from "quickjs-emscripten";
import type { Row } from "./sqlite/types.ts";

/** A JSON scalar: what a test-table cell and a result cell may hold. */
export type JsonScalar = null | number | string | boolean;
export type TableRows = Record<string, JsonScalar>[];
export type TestTables = Record<string, TableRows>;

export interface SandboxOptions {
  /** CPU time limit in milliseconds. Default 1000. */
  timeoutMs?: number;
  /** Heap limit of the runtime in bytes. Default 32 MiB (a bomb grows the host by ~4x the limit before it is stopped; bench/sandbox.ts). */
  memoryBytes?: number;
  /** Characters of the JSON answer at most. Default 1 000 000. */
  maxResultChars?: number;
  /** Rows of the answer at most. Default 10 000. */
  maxRows?: number;
}

export interface SandboxSuccess {
  ok: true;
  columns: string[];
  rows: JsonScalar[][];
  elapsedMs: number;
}

export type SandboxErrorKind = "error" | "timeout" | "memory" | "shape";

export interface SandboxFailure {
  ok: false;
  kind: SandboxErrorKind;
  /** One line, says why. */
  message: string;
  elapsedMs: number;
}

export type SandboxResult = SandboxSuccess | SandboxFailure;

export const SANDBOX_DEFAULTS = { timeoutMs: 1000, memoryBytes: 32 * 1024 * 1024, maxResultChars: 1_000_000, maxRows: 10_000 } as const;

let quickJs: Promise<QuickJSWASMModule> | undefined;
const loadQuickJs = () => (quickJs ??= getQuickJS());

const oneLine = (text: unknown) => String(text).replace(/\s+/g, " ").trim().slice(0, 500);
const isIdentifier = (name: string) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);

// Runs inside QuickJS before the model's code: the tables as frozen plain data, each also as a global of its name
// when that is a valid identifier; a console that discards, so logging code does not fail.
const PRELUDE = `
"use strict";
(() => {
  const freeze = (value) => { if (value && typeof value === "object") { Object.values(value).forEach(freeze); Object.freeze(value); } return value; };
  const tables = freeze(JSON.parse(globalThis.__input));
  delete globalThis.__input;
  const names = __names;
  delete globalThis.__names;
  Object.defineProperty(globalThis, "tables", { value: tables, enumerable: false });
  for (const name of names) Object.defineProperty(globalThis, name, { value: tables[name], enumerable: false });
  globalThis.console = { log() {}, warn() {}, error() {}, info() {}, debug() {} };
  // The answer's serializer, fixed before the model's code runs (which may replace JSON.stringify).
  const stringify = JSON.stringify;
  Object.defineProperty(globalThis, "__answer", {
    value: () => (typeof result === "undefined" ? stringify({ missing: true }) : stringify({ value: result === undefined ? null : result })),
    writable: false,
    configurable: false,
    enumerable: false,
  });
})();
`;

// Runs after the model's code: the answer in `result` as one JSON string (validated again on the host side).
const EPILOGUE = `__answer()`;

/**
 * Runs test code over test tables. The code reads `tables.<name>` (or the table's name as a global: arrays of row
 * objects) and assigns its answer to a top-level `result`: an array of row objects (columns are the first row's
 * keys, in order), an array of arrays, or a single scalar (one row, one column). Never throws for bad code.
 */
export async function runSandboxed(code: string, tables: TestTables, options: SandboxOptions = {}): Promise<SandboxResult> {
  const timeoutMs = options.timeoutMs ?? SANDBOX_DEFAULTS.timeoutMs;
  const memoryBytes = options.memoryBytes ?? SANDBOX_DEFAULTS.memoryBytes;
  const maxResultChars = options.maxResultChars ?? SANDBOX_DEFAULTS.maxResultChars;
  const maxRows = options.maxRows ?? SANDBOX_DEFAULTS.maxRows;
  const QuickJS = await loadQuickJs();
  const started = performance.now();
  const elapsed = () => performance.now() - started;
  const deadline = Date.now() + timeoutMs;
  const runtime = QuickJS.newRuntime();
  runtime.setMemoryLimit(memoryBytes);
  runtime.setMaxStackSize(1024 * 1024);
  runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
  const vm = runtime.newContext();
  const fail = (kind: SandboxErrorKind, message: string): SandboxFailure => ({ ok: false, kind, message: oneLine(message), elapsedMs: elapsed() });
  // What a QuickJS exception means, by its message (interrupts and out-of-memory are plain errors in QuickJS).
  const classify = (error: unknown): SandboxFailure => {
    const text = describeError(error);
    if (Date.now() >= deadline || /interrupted/i.test(text)) return fail("timeout", `the test code was stopped after ${timeoutMs} ms (time limit)`);
    if (/out of memory|memory limit|allocation failed/i.test(text)) {
      // WebAssembly memory never shrinks: a fresh module for the next run lets this grown one be collected.
      quickJs = undefined;
      return fail("memory", `the test code ran out of memory (limit ${Math.round(memoryBytes / 1048576)} MiB)`);
    }
    if (/stack overflow/i.test(text)) return fail("error", `the test code overflowed the stack: ${text}`);
    return fail("error", text);
  };
  try {
    const input = vm.newString(JSON.stringify(tables));
    vm.setProp(vm.global, "__input", input);
    input.dispose();
    const names = vm.unwrapResult(vm.evalCode(JSON.stringify(Object.keys(tables).filter(isIdentifier))));
    vm.setProp(vm.global, "__names", names);
    names.dispose();
    const prelude = vm.evalCode(PRELUDE, "prelude.js");
    if (prelude.error) {
      const error = vm.dump(prelude.error);
      prelude.error.dispose();
      return classify(error);
    }
    prelude.value.dispose();
    const ran = vm.evalCode(code, "test-code.js", { type: "global", strict: false });
    if (ran.error) {
      const error = vm.dump(ran.error);
      ran.error.dispose();
      return classify(error);
    }
    ran.value.dispose();
    const out = vm.evalCode(EPILOGUE, "epilogue.js");
    if (out.error) {
      const error = vm.dump(out.error);
      out.error.dispose();
      return classify(error);
    }
    // Read the length before copying the string out, so a huge answer is refused without crossing over.
    const lengthHandle = vm.getProp(out.value, "length");
    const length = vm.getNumber(lengthHandle);
    lengthHandle.dispose();
    if (!(length <= maxResultChars)) {
      out.value.dispose();
      return fail("shape", `the result is too large (${length} characters of JSON; limit ${maxResultChars})`);
    }
    const json = vm.getString(out.value);
    out.value.dispose();
    return toRows(json, maxRows, elapsed);
  } catch (error) {
    return classify(error);
  } finally {
    try {
      vm.dispose();
      runtime.dispose();
    } catch {
      // QuickJS may abort while freeing a runtime left in a bad state (e.g. after a stack overflow); an aborted
      // WebAssembly instance is unusable, so the next run loads a fresh one.
      quickJs = undefined;
    }
  }
}

function describeError(error: unknown): string {
  if (error && typeof error === "object") {
    const e = error as { name?: unknown; message?: unknown };
    if (typeof e.message === "string") return `${typeof e.name === "string" ? `${e.name}: ` : ""}${e.message}`;
  }
  return oneLine(error);
}

const isScalar = (v: unknown): v is JsonScalar => v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));

/** The answer in the fixed shape {columns, rows} of JSON scalars, or why it does not fit. */
function toRows(json: string, maxRows: number, elapsed: () => number): SandboxResult {
  const bad = (message: string): SandboxFailure => ({ ok: false, kind: "shape", message, elapsedMs: elapsed() });
  const parsed = JSON.parse(json) as { missing?: boolean; value?: unknown };
  if (parsed.missing) return bad("the code did not assign `result`");
  const value = parsed.value;
  if (isScalar(value)) return { ok: true, columns: ["result"], rows: [[value]], elapsedMs: elapsed() };
  if (!Array.isArray(value)) return bad("`result` must be an array of row objects, an array of arrays, or a single value");
  if (value.length > maxRows) return bad(`the result has ${value.length} rows (limit ${maxRows})`);
  if (value.length === 0) return { ok: true, columns: [], rows: [], elapsedMs: elapsed() };
  const first = value[0];
  if (Array.isArray(first)) {
    const width = first.length;
    const rows: JsonScalar[][] = [];
    for (const [i, row] of value.entries()) {
      if (!Array.isArray(row) || row.length !== width) return bad(`row ${i} of \`result\` is not an array of ${width} values`);
      if (!row.every(isScalar)) return bad(`row ${i} of \`result\` holds a value that is not a number, string, boolean or null`);
      rows.push(row);
    }
    return { ok: true, columns: first.map((_, i) => `col${i + 1}`), rows, elapsedMs: elapsed() };
  }
  if (first && typeof first === "object") {
    const columns = Object.keys(first);
    if (!columns.length) return bad("the first row of `result` has no columns");
    const rows: JsonScalar[][] = [];
    for (const [i, row] of value.entries()) {
      if (!row || typeof row !== "object" || Array.isArray(row)) return bad(`row ${i} of \`result\` is not an object`);
      const cells = columns.map((c) => (row as Record<string, unknown>)[c] ?? null);
      if (!cells.every(isScalar)) return bad(`row ${i} of \`result\` holds a value that is not a number, string, boolean or null`);
      rows.push(cells);
    }
    return { ok: true, columns, rows, elapsedMs: elapsed() };
  }
  if (value.every(isScalar)) return { ok: true, columns: ["result"], rows: value.map((v) => [v]), elapsedMs: elapsed() };
  return bad("`result` must be an array of row objects, an array of arrays, or a single value");
}

/** Sandbox rows as executor rows for the shared scorer (booleans as SQLite stores them: 1 and 0). */
export function sandboxRowsForScoring(rows: JsonScalar[][]): Row[] {
  return rows.map((row) => row.map((v) => (typeof v === "boolean" ? (v ? 1 : 0) : v)));
}
