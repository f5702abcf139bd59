/** RFC 4180 CSV: quoted fields may hold commas, doubled quotes and line breaks; CRLF or LF. Rows keep their first line number. */
export declare function parseCsv(text: string, file?: string): Array<{
    line: number;
    cells: string[];
}>;
