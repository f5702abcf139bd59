import path from "node:path";
import { type Command, UsageError, UserError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { describeCut, formatTable, previewResult } from "../../tools/format.ts";
import { createExecutor } from "../../tools/sqlite/executor.ts";
import type { SqlValue } from "../../tools/sqlite/types.ts";
import { EXIT } from "../../core/exit.ts";

const usage = `Usage: sqlmend exec --db FILE [--timeout-ms N] [--max-rows N] [--json] "SQL"

Runs one read-only SELECT/WITH/VALUES statement against a SQLite file, the way the
methods do (read-only, in a killable worker process), and prints the result.

Options:
  --db FILE         the .sqlite file (required)
  --timeout-ms N    stop the query after N milliseconds (default 30000)
  --max-rows N      rows to print (default 50; 0 prints all)
  --json            print one JSON object instead of a table

JSON output: {"columns":[...],"rows":[[...]],"rowCount":N,"truncated":bool,"elapsedMs":x}
(+ "cellsShortened":N and "bytesCut":true, "cut":"..." when the byte budget cut the result:
each cell is kept up to 1 MiB and the rows up to 32 MiB; rowCount still counts every row)
Cells keep SQLite's storage class:
  NULL     null
  INTEGER  a JSON integer (no decimal point), or {"int":"<decimal>"} beyond +-(2^53-1)
  REAL     a JSON number with a decimal point or exponent (1.0, 1e+300);
           {"real":"Infinity"} / {"real":"-Infinity"} for infinities
  TEXT     a JSON string
  BLOB     {"blob":"<hex>"}
Errors (refused statement, timeout, SQL error, missing or corrupt file) print one
line on stderr and exit with status 1.`;

function encodeReal(value: number): string {
  if (!Number.isFinite(value)) return JSON.stringify({ real: String(value) });
  const text = JSON.stringify(value);
  // JSON.stringify(1.0) is "1": add the point back so REAL stays distinguishable from INTEGER.
  return /[.eE]/.test(text) ? text : `${text}.0`;
}

/** One cell as JSON text, lossless (see the usage text). */
export function encodeCell(value: SqlValue): string {
  if (value === null) return "null";
  if (typeof value === "bigint") {
    const safe = value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER);
    return safe ? value.toString() : JSON.stringify({ int: value.toString() });
  }
  if (typeof value === "number") return encodeReal(value);
  if (typeof value === "string") return JSON.stringify(value);
  return JSON.stringify({ blob: Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString("hex") });
}

function nonNegativeInt(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text.trim())) throw new UsageError(`${flag} needs a non-negative integer, got '${text}'`);
  return Number(text);
}

export const execCommand: Command = {
  name: "exec",
  usage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      db: { type: "string" },
      "timeout-ms": { type: "string" },
      "max-rows": { type: "string" },
      json: { type: "boolean" },
    });
    if (!values.db) throw new UsageError("--db FILE is required");
    if (positionals.length !== 1) throw new UsageError('give exactly one SQL statement, quoted: "SELECT ..."');
    const timeoutMs = nonNegativeInt(values["timeout-ms"], "--timeout-ms", 30_000);
    if (timeoutMs === 0) throw new UsageError("--timeout-ms must be at least 1");
    const maxRows = nonNegativeInt(values["max-rows"], "--max-rows", 50);
    const dbPath = path.resolve(io.cwd, values.db);

    // A private one-process pool, closed at once, so the command exits promptly.
    const executor = createExecutor({ size: 1 });
    let result;
    try {
      result = await executor.run(dbPath, positionals[0]!, {
        timeoutMs,
        ...(maxRows > 0 ? { maxRows } : {}),
      });
    } finally {
      await executor.close();
    }
    if (!result.ok) throw new UserError(`${result.kind}: ${result.message}`);

    // What the worker's byte budget cut (tools/sqlite/keep.js) is said, never silent.
    const cut = describeCut(result);
    if (values.json) {
      const rows = result.rows.map((row) => `[${row.map(encodeCell).join(",")}]`).join(",");
      const cutFields = cut
        ? `,"cellsShortened":${result.cellsShortened ?? 0},"bytesCut":${result.bytesCut ?? false},"cut":${JSON.stringify(cut)}`
        : "";
      io.stdout(
        `{"columns":${JSON.stringify(result.columns)},"rows":[${rows}],"rowCount":${result.rowCount},` +
          `"truncated":${result.truncated}${cutFields},"elapsedMs":${Math.round(result.elapsedMs * 1000) / 1000}}\n`,
      );
    } else {
      const preview = previewResult(result, { maxRows: result.rows.length });
      io.stdout(`${formatTable(preview)}\n${cut ? `note: ${cut}\n` : ""}`);
    }
    return EXIT.ok;
  },
};
