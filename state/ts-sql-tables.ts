// How the data agent writes test rows (no imports: prompts and the mock model read it without loading LangGraph).
/** Test rows as the data agent replies with them: per table its columns once and each row an array. */
export const columnarTables = (tables: Record<string, readonly Record<string, unknown>[]>) =>
  Object.fromEntries(
    Object.entries(tables).map(([name, rows]) => {
      const columns = [...new Set(rows.flatMap((r) => Object.keys(r)))];
      return [name, { columns, rows: rows.map((r) => columns.map((c) => r[c] ?? null)) }];
    }),
  );
