/** One cell as a JSON-safe preview value. Returns the value and whether it was shortened. */
export function previewCell(value, maxCellChars = 200) {
    if (value === null)
        return [null, false];
    if (typeof value === "bigint") {
        const safe = value <= BigInt(Number.MAX_SAFE_INTEGER) && value >= BigInt(Number.MIN_SAFE_INTEGER);
        return [safe ? Number(value) : value.toString(), false];
    }
    if (typeof value === "number")
        return [Number.isFinite(value) ? value : String(value), false];
    if (typeof value === "string") {
        // Count code points, so a cut never splits a surrogate pair.
        const chars = Array.from(value);
        if (chars.length <= maxCellChars)
            return [value, false];
        return [`${chars.slice(0, Math.max(0, maxCellChars - 1)).join("")}…`, true];
    }
    return [`<blob ${value.byteLength} bytes>`, false];
}
export function previewResult(result, opts = {}) {
    const maxRows = opts.maxRows ?? 20;
    const maxCellChars = opts.maxCellChars ?? 200;
    let cut = false;
    const rows = result.rows.slice(0, maxRows).map((row) => row.map((value) => {
        const [cell, shortened] = previewCell(value, maxCellChars);
        cut ||= shortened;
        return cell;
    }));
    return {
        columns: [...result.columns],
        rows,
        rowCount: result.rowCount,
        truncated: cut || rows.length < result.rowCount,
    };
}
/** 1234567 → "1,234,567"; not toLocaleString, whose first call loads ICU's data (~20 ms of a one-query `exec`). */
export const count = (n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
/** A cell as table text: one line, NULL spelled out. */
function cellText(cell) {
    if (cell === null)
        return "NULL";
    if (typeof cell === "number")
        return String(cell);
    return cell.replace(/\r\n|\r|\n/g, "\\n").replace(/\t/g, " ");
}
/**
 * A compact aligned table:
 *
 *   id | name
 *   ---+------
 *    1 | Alice
 *   (1 row)
 *
 * Numbers are right-aligned, everything else left-aligned.
 */
export function formatTable(preview) {
    const header = preview.columns.map((c) => cellText(c));
    const body = preview.rows.map((row) => row.map(cellText));
    const numeric = preview.columns.map((_, i) => preview.rows.some((r) => typeof r[i] === "number"));
    const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? "").length)));
    const line = (cells, alignRight) => cells
        .map((c, i) => (alignRight(i) ? c.padStart(widths[i]) : c.padEnd(widths[i])))
        .join(" | ")
        .trimEnd();
    const lines = [];
    if (header.length > 0) {
        lines.push(line(header, () => false));
        lines.push(widths.map((w) => "-".repeat(w)).join("-+-"));
        for (let r = 0; r < body.length; r++) {
            const raw = preview.rows[r];
            lines.push(line(body[r], (i) => numeric[i] && (typeof raw[i] === "number" || raw[i] === null)));
        }
    }
    const shown = preview.rows.length;
    const total = preview.rowCount;
    if (shown < total)
        lines.push(`(${count(shown)} of ${count(total)} rows shown)`);
    else
        lines.push(`(${count(total)} ${total === 1 ? "row" : "rows"})`);
    return lines.join("\n");
}
