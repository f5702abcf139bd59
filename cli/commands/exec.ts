import { type Command, UsageError, UserError } from "../shared/command.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { parseFlags } from "../shared/flags.ts";
import { defineConfig } from "../../core/config.ts";
import { EXEC_CONFIG, execSql } from "../../runner/explore/exec.ts";
import { formatTable, previewResult } from "../../tools/format.ts";
import type { SqlValue } from "../../tools/sqlite/types.ts";
import { EXIT } from "../../core/exit.ts";

const { sql: _statement, ...EXEC_FLAGS } = EXEC_CONFIG;
const CLI_FLAGS = defineConfig({ ...EXEC_FLAGS, json: { type: "boolean", help: "print one JSON object instead of a table" } });

const usage = `Usage: sqlmend exec --db FILE [--timeout-ms N] [--max-rows N] [--json] "SQL"

Runs one read-only SELECT/WITH/VALUES statement against a SQLite file, the way the
methods do (read-only, in a killable worker process), and prints the result.

Options:
${usageOf(CLI_FLAGS, undefined, 20)}

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
line on stderr and exit with status 1.
From a script: exec({ db, sql, timeoutMs, maxRows }) returns the same as data.`;

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

export const execCommand: Command = {
  name: "exec",
  usage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, flagTableOf(CLI_FLAGS));
    const { json, ...config } = configFromFlags(CLI_FLAGS, values);
    if (positionals.length !== 1) throw new UsageError('give exactly one SQL statement, quoted: "SELECT ..."');
    const result = await execSql({ ...config, sql: positionals[0]! }, io);
    if (!result.ok) throw new UserError(`${result.kind}: ${result.message}`);
    if (json) {
      const rows = result.rows.map((row) => `[${row.map(encodeCell).join(",")}]`).join(",");
      const cutFields = result.cut
        ? `,"cellsShortened":${result.cellsShortened ?? 0},"bytesCut":${result.bytesCut ?? false},"cut":${JSON.stringify(result.cut)}`
        : "";
      io.stdout(
        `{"columns":${JSON.stringify(result.columns)},"rows":[${rows}],"rowCount":${result.rowCount},` +
          `"truncated":${result.truncated}${cutFields},"elapsedMs":${Math.round(result.elapsedMs * 1000) / 1000}}\n`,
      );
    } else {
      const preview = previewResult(result, { maxRows: result.rows.length });
      io.stdout(`${formatTable(preview)}\n${result.cut ? `note: ${result.cut}\n` : ""}`);
    }
    return EXIT.ok;
  },
};
