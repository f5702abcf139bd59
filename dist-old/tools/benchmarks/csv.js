/** A CSV reader for question files: rows with their line numbers, a malformed field a one-line UserError. */
import { UserError } from "../../core/errors.js";
/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks; CRLF or LF. Rows keep their first line number. */
export function parseCsv(text, file = "CSV") {
    const rows = [];
    let cells = [];
    let cell = "";
    let line = 1;
    let rowLine = 1;
    let i = 0;
    let quotedAt = 0;
    const endRow = () => {
        cells.push(cell);
        rows.push({ line: rowLine, cells });
        cells = [];
        cell = "";
    };
    while (i < text.length) {
        const c = text[i];
        if (c === '"' && cell === "") {
            quotedAt = line;
            i++;
            for (;;) {
                if (i >= text.length)
                    throw new UserError(`${file}: line ${quotedAt}: unterminated quoted field`);
                if (text[i] === '"') {
                    if (text[i + 1] === '"') {
                        cell += '"';
                        i += 2;
                        continue;
                    }
                    i++;
                    break;
                }
                if (text[i] === "\n")
                    line++;
                cell += text[i++];
            }
            if (i < text.length && text[i] !== "," && text[i] !== "\n" && text[i] !== "\r") {
                throw new UserError(`${file}: line ${line}: text after a closing quote (write a quote inside a quoted field as "")`);
            }
            continue;
        }
        if (c === ",") {
            cells.push(cell);
            cell = "";
            i++;
        }
        else if (c === "\r" && text[i + 1] === "\n") {
            i++;
        }
        else if (c === "\n") {
            endRow();
            line++;
            rowLine = line;
            i++;
        }
        else {
            cell += c;
            i++;
        }
    }
    if (cell !== "" || cells.length)
        endRow();
    return rows;
}
