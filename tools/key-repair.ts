import type { ForeignKeySchema } from "./schema.ts";

/** Rows by table name, each an object of column → JSON scalar (TS-SQL's test tables). */
type Rows = Record<string, Record<string, string | number | boolean | null>[]>;

/** What the repair reads of a schema: keys, foreign keys and column types (a `DbSchema` has them). */
export interface KeyFacts {
  tables: { name: string; primaryKey: string[]; foreignKeys: ForeignKeySchema[]; columns: { name: string; type: string }[] }[];
}

/** What `repairKeys` changed: a line per table and column (for the data agent's next prompt and inspect), and how many. */
export interface KeyRepairs {
  tables: Rows;
  /** One line per repaired column, e.g. `concert.Stadium_ID: 3 values naming no stadium row set to stadium's keys`. */
  notes: string[];
  /** Repeated integer primary keys given a fresh number. */
  renumbered: number;
  /** Foreign-key values that named no row of their parent table, set to one of its keys. */
  remapped: number;
  /** Rows left out because their key (composite, text, or itself a foreign key) repeats an earlier row's. */
  dropped: number;
}

/** Values equal as SQLite's key checks see them (a numeric parent's affinity applied: `2` and `"2"` are one key). */
const keyOf = (v: unknown): string | undefined =>
  v === null || v === undefined ? undefined : typeof v === "number" ? `n${v}` : /^-?\d+(\.\d+)?$/.test(String(v).trim()) ? `n${Number(v)}` : `s${String(v)}`;

const isIntegerType = (type: string) => /INT/i.test(type);

const plural = (n: number, word: string) => `${n} ${word}${n > 1 ? "s" : ""}`;

/**
 * Deterministic repairs of generated test rows that a schema-following model may well write and the scratch database
 * would refuse (issue 40): a JSON schema cannot say "unique across rows" or "a value some row of another table has",
 * so these are fixed here rather than re-asked, and counted for the question. In this order:
 * 1. a repeated single-column integer primary key that is not itself a foreign key gets the next free number;
 * 2. a single-column foreign-key value naming no row of its parent table (when the parent has rows) is set to one of
 *    the parent's keys: the k-th distinct dangling value to the parent's k-th key, cycling, so one dangling value
 *    always lands on one parent and children spread over the parents;
 * 3. a row whose other primary key (composite, text, or a foreign key) repeats an earlier row's is left out, as the
 *    database would refuse it.
 * Nothing else changes: a foreign key to a table without rows, a composite foreign key, NOT NULL, CHECK and UNIQUE
 * constraints are the scratch database's to refuse (and the data agent's to be told).
 */
export function repairKeys(schema: KeyFacts, given: Rows): KeyRepairs {
  const byLower = new Map(schema.tables.map((t) => [t.name.toLowerCase(), t]));
  const tables: Rows = Object.fromEntries(Object.entries(given).map(([t, rows]) => [t, rows.map((r) => ({ ...r }))]));
  const rowsOf = (name: string) => Object.entries(tables).find(([t]) => t.toLowerCase() === name.toLowerCase())?.[1];
  const at = (row: Record<string, unknown>, column: string) => Object.keys(row).find((c) => c.toLowerCase() === column.toLowerCase()) ?? column;
  const notes: string[] = [];
  let renumbered = 0;
  let remapped = 0;
  let dropped = 0;
  const renumberable = (table: KeyFacts["tables"][number]) => {
    const column = table.primaryKey.length === 1 ? table.columns.find((c) => c.name.toLowerCase() === table.primaryKey[0]!.toLowerCase()) : undefined;
    return column && isIntegerType(column.type) && !table.foreignKeys.some((fk) => fk.columns.some((c) => c.toLowerCase() === column.name.toLowerCase())) ? column.name : undefined;
  };
  for (const [name, rows] of Object.entries(tables)) {
    const table = byLower.get(name.toLowerCase());
    const pk = table && renumberable(table);
    if (!pk) continue;
    let next = Math.max(0, ...rows.map((r) => r[at(r, pk)]).filter((v): v is number => typeof v === "number" && Number.isFinite(v)).map(Math.floor)) + 1;
    const seen = new Set<string>();
    let changed = 0;
    for (const row of rows) {
      const key = keyOf(row[at(row, pk)]);
      if (key === undefined) continue; // a NULL integer key: the database gives it a rowid or refuses it
      if (seen.has(key)) {
        row[at(row, pk)] = next++;
        changed++;
      }
      seen.add(keyOf(row[at(row, pk)])!);
    }
    if (changed) notes.push(`${table.name}.${pk}: ${plural(changed, "repeated key")} given the next free number`);
    renumbered += changed;
  }
  for (const [name, rows] of Object.entries(tables)) {
    const table = byLower.get(name.toLowerCase());
    for (const fk of table?.foreignKeys ?? []) {
      const [column, refColumn] = [fk.columns[0], fk.refColumns[0]];
      if (fk.columns.length !== 1 || !column || !refColumn) continue;
      const parentRows = rowsOf(fk.refTable);
      const parentKeys = new Map<string, string | number | boolean | null>();
      for (const p of parentRows ?? []) {
        const key = keyOf(p[at(p, refColumn)]);
        if (key !== undefined && !parentKeys.has(key)) parentKeys.set(key, p[at(p, refColumn)]!);
      }
      if (!parentKeys.size) continue; // nothing to point at: the database refuses them, and the data agent is told
      const keys = [...parentKeys.values()];
      const onto = new Map<string, string | number | boolean | null>();
      let changed = 0;
      for (const row of rows) {
        const key = keyOf(row[at(row, column)]);
        if (key === undefined || parentKeys.has(key)) continue;
        if (!onto.has(key)) onto.set(key, keys[onto.size % keys.length]!);
        row[at(row, column)] = onto.get(key)!;
        changed++;
      }
      if (changed) notes.push(`${table!.name}.${column}: ${plural(changed, "value")} naming no ${fk.refTable} row set to ${fk.refTable}'s keys`);
      remapped += changed;
    }
  }
  for (const [name, rows] of Object.entries(tables)) {
    const table = byLower.get(name.toLowerCase());
    if (!table?.primaryKey.length || renumberable(table)) continue;
    const seen = new Set<string>();
    const kept = rows.filter((row) => {
      const key = table.primaryKey.map((c) => keyOf(row[at(row, c)]));
      if (key.some((k) => k === undefined)) return true; // NULL in a key: the database's to judge
      const id = key.join("\u0000");
      return seen.has(id) ? false : (seen.add(id), true);
    });
    const left = rows.length - kept.length;
    if (!left) continue;
    tables[name] = kept;
    const label = table.primaryKey.length > 1 ? `(${table.primaryKey.join(", ")})` : table.primaryKey[0];
    notes.push(`${table.name}.${label}: ${plural(left, "row")} repeating an earlier row's key left out`);
    dropped += left;
  }
  return { tables, notes, renumbered, remapped, dropped };
}
