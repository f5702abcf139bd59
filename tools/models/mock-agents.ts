/**
 * The built-in mock model's agents (`--model mock`): every role of every graph answered in process, from the
 * benchmark's gold SQL where the question has one (looked up by the question text its prompt shows), a plain
 * `SELECT 1` otherwise. The test suite's scripted server answers with the same agents (test/support/method-agents.ts).
 *
 * What the agents answer (a plausible, well-formed reply for each):
 * - writers of a first SQL (generator, the R³ writer's opening turn, Memo-SQL's writer): the question's gold SQL,
 *   except by plan a wrong-result query (`SELECT * FROM (gold) LIMIT 0`) or one that fails (`... FROM missing_table`);
 * - agents that correct or revise (fixer, corrector, refiner, reviser, solver, debugger, the R³ writer after an error or reviews
 *   that found a problem): the gold SQL; after reviews that found nothing, the R³ writer keeps its query (a rebuttal);
 * - judges (reviewer, critic, reflector, feedback's judge, self-debugging's explainer) say "wrong" exactly when the query
 *   under review is not the gold;
 * - structured agents (linker, persona, decomposer, reflector, critic, labeler) reply with their JSON;
 * - TS-SQL's data agent writes real rows of the tables the question needs among those its prompt shows (as a model can:
 *   a parent table the prompt leaves out gets no rows), 3 to 8 a table as the prompt asks, picked so the gold query's
 *   answer is informative; its coders a commented JavaScript program whose result is the gold query's result on the
 *   rows the scratch database keeps.
 */
import Database from "better-sqlite3";
import type { Question } from "../../state/question.ts";
import { type KeyFacts, repairKeys } from "../key-repair.ts";

/** One request to an agent: its role and the conversation it was shown. */
export interface MockRequest {
  role: string;
  messages: { role: string; content: string }[];
}
export interface MockReply {
  content: string;
}

/** Every role the agents answer by name (any other gets the gold SQL). */
export const AGENT_ROLES = [
  "generator", "fixer", "linker",
  "writer", "persona", "reviewer",
  "feedback", "corrector", "manager",
  "decomposer", "solver", "reflector", "critic", "refiner", "labeler", "sampler",
  "data", "coder", "selector", "reviser",
  "explainer", "debugger",
] as const;
export type AgentRole = (typeof AGENT_ROLES)[number];

type TestTables = Record<string, Record<string, unknown>[]>;

export type InitialPlan = "right" | "wrong-result" | "fails";

export interface MockAgentsOptions {
  /** Questions the agents know (gold SQL looked up by question text); earlier lists win when a prompt shows several. */
  questions: Question[][];
  /** What a first SQL writer gets wrong for this question (default: every 4th wrong result, the next one fails). */
  initial?: (q: Question) => InitialPlan;
}

export interface MockAgents {
  respond: (req: MockRequest) => MockReply;
  /** Requests per role. */
  calls: Map<string, number>;
  /** Requests of a role the agents do not know (answered with the gold SQL). */
  unrouted: MockRequest[];
  /** A structured reply a schema-only stand-in made in the agents' stead (its data rows are kept for the coder). */
  onSchemaReply: (req: MockRequest, value: unknown) => void;
}

/** Key values equal as SQLite's foreign keys see them: Spider stores some as text in the child, integers in the parent. */
const sameKey = (a: unknown, b: unknown) => a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);

/** The rows a table the scripted data agent writes, as TS-SQL's data prompt asks (3 to 8). */
export const DATA_MIN_ROWS = 3;
export const DATA_MAX_ROWS = 8;

export const defaultInitial = (q: Question): InitialPlan => (Number(q.id) % 4 === 0 ? "wrong-result" : Number(q.id) % 4 === 1 ? "fails" : "right");

const norm = (sql: string) => sql.replace(/\s+/g, " ").replace(/;\s*$/, "").trim().toLowerCase();
const sqlBlock = (sql: string, preface: string): MockReply => ({ content: `${preface}\n\`\`\`sql\n${sql}\n\`\`\`` });
const json = (value: unknown): MockReply => ({ content: JSON.stringify(value) });
const text = (content: string): MockReply => ({ content });
const allText = (req: Pick<MockRequest, "messages">) => req.messages.map((m) => m.content).join("\n");
const lastUser = (req: MockRequest) => req.messages.filter((m) => m.role === "user").at(-1)?.content ?? "";
/** The body of the last ```sql block after `label` in `text`, or the plain line after it. */
function sqlAfter(text: string, label: string): string | undefined {
  const at = text.lastIndexOf(label);
  if (at < 0) return undefined;
  const rest = text.slice(at + label.length);
  const fenced = /^\s*```sql\n([\s\S]*?)```/.exec(rest);
  if (fenced) return fenced[1]!.trim();
  return /^\s*(.+)$/m.exec(rest)?.[1]?.trim();
}

/** The tables a TS-SQL data prompt lists (`name: column TYPE ...; ...`, before "What the question refers to") and their columns in order. */
export function promptTables(req: Pick<MockRequest, "messages">): Map<string, string[]> {
  const prompt = allText(req);
  const own = prompt.slice(prompt.lastIndexOf("(End of the example.)") + 1);
  const start = Math.max(0, own.search(/^Tables\b/m));
  const ends = ["What the question refers to", "\nQuestion: "].map((m) => own.indexOf(m, start)).filter((i) => i >= 0);
  const block = own.slice(start, ends.length ? Math.min(...ends) : undefined);
  const out = new Map<string, string[]>();
  for (const m of block.matchAll(/^["`]?([^"`\s:]+)["`]?: (.*)$/gm)) {
    const columns = m[2]!.replace(/ \(\+\d+ other columns? not needed here\)$/, "").split("; ").filter((c) => !/^(key \(|\()/.test(c));
    out.set(m[1]!, columns.map((c) => /^["`]?([^"`\s]+)/.exec(c)?.[1] ?? c));
  }
  return out;
}

export function wrongResult(gold: string): string {
  return `SELECT * FROM (${gold}) LIMIT 0`;
}
export function failing(gold: string): string {
  return gold.replace(/\bFROM\s+(\w+)/i, "FROM $1_missing");
}

export function mockAgents(options: MockAgentsOptions): MockAgents {
  const initial = options.initial ?? defaultInitial;
  const calls = new Map<string, number>();
  const unrouted: MockRequest[] = [];
  const lookups = options.questions.map((list) => new Map(list.map((q) => [q.question, q])));
  const dbs = new Map<string, Database.Database>();

  const questionOf = (req: MockRequest): Question | undefined => {
    // The last question shown is the one asked (exemplars and memory cases come before it).
    const shown = [...allText(req).matchAll(/^Question: (.*)$/gm)].map((m) => m[1]!.trim()).reverse();
    for (const lookup of lookups) for (const s of shown) if (lookup.has(s)) return lookup.get(s);
    return undefined;
  };
  const dbOf = (q: Question): Database.Database => {
    let db = dbs.get(q.dbPath);
    if (!db) dbs.set(q.dbPath, (db = new Database(q.dbPath, { readonly: true, fileMustExist: true })));
    return db;
  };
  const firstSql = (q: Question | undefined): string => {
    if (!q?.goldSql) return "SELECT 1";
    const plan = initial(q);
    return plan === "wrong-result" ? wrongResult(q.goldSql) : plan === "fails" ? failing(q.goldSql) : q.goldSql;
  };
  const gold = (q: Question | undefined) => q?.goldSql ?? "SELECT 1";
  const isGold = (q: Question | undefined, sql: string | undefined) => !!q?.goldSql && !!sql && norm(sql) === norm(q.goldSql);

  const fksOf = (db: Database.Database, t: string) => db.prepare(`PRAGMA foreign_key_list("${t}")`).all() as { table: string; from: string; to: string | null }[];

  /** The keys of a database's tables, as TS-SQL's key repair reads them. */
  const keyFactsOf = (db: Database.Database): KeyFacts => {
    const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((r) => r.name);
    return {
      tables: names.map((name) => {
        const columns = db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string; type: string; pk: number }[];
        const fks = db.prepare(`PRAGMA foreign_key_list("${name}")`).all() as { id: number; table: string; from: string; to: string | null }[];
        const ids = [...new Set(fks.map((f) => f.id))];
        return {
          name,
          columns,
          primaryKey: columns.filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk).map((c) => c.name),
          foreignKeys: ids.map((id) => {
            const parts = fks.filter((f) => f.id === id);
            const refTable = names.find((n) => n.toLowerCase() === parts[0]!.table.toLowerCase()) ?? parts[0]!.table;
            const refPk = (db.prepare(`PRAGMA table_info("${refTable}")`).all() as { name: string; pk: number }[]).filter((c) => c.pk > 0).sort((a, b) => a.pk - b.pk);
            return { columns: parts.map((f) => f.from), refTable, refColumns: parts.map((f, i) => f.to ?? refPk[i]?.name ?? "") };
          }),
        };
      }),
    };
  };

  /**
   * The rows the scratch database keeps (foreign keys on), after TS-SQL's key repair (repeated integer keys
   * renumbered, dangling foreign keys set to a parent's key, as the pipeline does before loading): a row whose
   * foreign key still names no row of its parent table (or a parent table the data lacks) is refused, until nothing
   * changes.
   */
  const keptRows = (q: Question, tables: TestTables): TestTables => {
    const db = dbOf(q);
    const repaired = repairKeys(keyFactsOf(db), tables as Parameters<typeof repairKeys>[1]).tables as TestTables;
    const kept: TestTables = Object.fromEntries(Object.entries(repaired).map(([t, rows]) => [t, [...rows]]));
    for (let changed = true; changed; ) {
      changed = false;
      for (const t of Object.keys(kept)) {
        for (const fk of fksOf(db, t)) {
          const parent = Object.keys(kept).find((n) => n.toLowerCase() === fk.table.toLowerCase());
          const to = fk.to ?? "rowid";
          const before = kept[t]!.length;
          kept[t] = kept[t]!.filter((row) => row[fk.from] === null || row[fk.from] === undefined || (!!parent && kept[parent]!.some((p) => sameKey(p[to], row[fk.from]))));
          if (kept[t]!.length !== before) changed = true;
        }
      }
    }
    return kept;
  };

  /** An answer that can tell queries apart: some row, and not only NULLs or zeros (a count of nothing). */
  const informative = (rows: unknown[][]) => rows.length > 0 && rows.some((r) => r.some((v) => v !== null && v !== 0));

  /**
   * Test data as a data agent following its prompt writes it (nodes/ts-sql/prompts.ts `dataPrompt`): rows only for
   * the tables the question needs among those the prompt shows (the gold's tables, those listed under "What the
   * question refers to", and the shown tables their foreign keys point to; never a table the prompt leaves out, as a
   * model could not), `DATA_MIN_ROWS` to `DATA_MAX_ROWS` a
   * table (more only up to a count the question names, "at least 10"), copied from the real rows: first the rows that
   * hold a value the gold query filters on or returns, then the rows joined to them, then others that fail the
   * conditions; every row's parent rows included (a child whose parent does not fit is left out). The first such pick
   * on which the gold's answer is informative, trying the values of one answer row at a time when all of them at
   * once are not; else the first pick (as a model may fail).
   */
  const testData = (req: MockRequest, q: Question): TestTables => {
    const db = dbOf(q);
    const gold = q.goldSql!;
    const names = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[]).map((r) => r.name);
    const prompt = allText(req);
    const own = prompt.slice(prompt.lastIndexOf("(End of the example.)") + 1);
    // The prompt's tables, a line each (`name: column TYPE ...; ...`), and the columns it shows of each.
    const lineOf = (n: string) => new RegExp(`^["\`]?${n}["\`]?: (.*)$`, "im").exec(own.slice(0, own.indexOf("What the question refers to")))?.[1];
    const shown = names.filter((n) => lineOf(n) !== undefined);
    const shownColumns = new Map(shown.map((n) => [n, new Set(lineOf(n)!.split("; ").map((c) => /^["`]?([^"`\s]+)/.exec(c)?.[1]?.toLowerCase() ?? ""))]));
    const shownNamed = (name: string) => shown.find((n) => n.toLowerCase() === name.toLowerCase());
    // The prompt asks for rows in each table it lists under "What the question refers to" (the coverage check wants them).
    const referred = /What the question refers to:\n([\s\S]*?)\n\n/.exec(own)?.[1] ?? "";
    const referredTables = new Set([...referred.matchAll(/^- ([^.\s]+)\./gm)].map((m) => m[1]!.toLowerCase()));
    const withParents = (start: Iterable<string>) => {
      const out = new Set(start);
      for (const queue = [...out]; queue.length; ) {
        for (const fk of fksOf(db, queue.pop()!)) {
          const parent = shownNamed(fk.table);
          if (parent && !out.has(parent)) out.add(parent), queue.push(parent);
        }
      }
      return out;
    };
    // The tables the answer comes from (the gold's and their parents) get the rows that matter first.
    const goldTables = withParents(shown.filter((n) => new RegExp(`\\b${n}\\b`, "i").test(gold)));
    const needed = withParents([...goldTables, ...shown.filter((n) => referredTables.has(n.toLowerCase()))]);
    if (!needed.size) for (const n of shown) needed.add(n);
    const tables = shown.filter((n) => needed.has(n));
    const cap = Math.max(DATA_MAX_ROWS, ...[...q.question.matchAll(/\b(?:at least|more than|over)\s+(\d+)\b/gi)].map((m) => Number(m[1])).filter((k) => k <= 20));
    // Only the columns the prompt shows (a column it leaves out is left NULL, as the prompt says).
    const all = Object.fromEntries(
      tables.map((t) => [t, (db.prepare(`SELECT * FROM "${t}"`).all() as Record<string, unknown>[]).map((r) => Object.fromEntries(Object.entries(r).filter(([c]) => shownColumns.get(t)!.has(c.toLowerCase()))))]),
    );
    const key = (v: unknown) => (typeof v === "number" || typeof v === "bigint" ? `n${Number(v)}` : typeof v === "string" ? `s${v.toLowerCase()}` : "");
    // The values the gold filters on (not a LIMIT's or a count's bound), and the columns it wants NULL.
    const filters = gold.replace(/\bLIMIT\s+\d+/gi, "").replace(/COUNT\s*\([^)]*\)\s*[<>=]+\s*\d+/gi, "");
    const literals = [...filters.matchAll(/'((?:[^']|'')*)'|\b(\d+(?:\.\d+)?)\b/g)].map((m) => (m[1] !== undefined ? `s${m[1].replace(/''/g, "'").toLowerCase()}` : `n${Number(m[2])}`));
    const wantNull = new Set([...gold.matchAll(/(\w+)\s+IS\s+NULL/gi)].map((m) => m[1]!.toLowerCase()));
    const answer = db.prepare(gold).raw(true).all() as unknown[][];
    const pick = (values: Set<string>, failing: number, meeting: number): TestTables => {
      // How many of the values a row holds (a text starting with one, as '2023-05-01' with '2023', counts too).
      const prefixes = [...values].filter((v) => v.startsWith("s") && v.length > 4);
      const score = (row: Record<string, unknown>) =>
        Object.entries(row).filter(([c, v]) => (v === null ? wantNull.has(c.toLowerCase()) : values.has(key(v)) || (typeof v === "string" && prefixes.some((p) => key(v).startsWith(p))))).length;
      const hit = (row: Record<string, unknown>) => score(row) > 0;
      const hits = new Map(tables.map((t) => [t, new Set(all[t]!.filter(hit).sort((a, b) => score(b) - score(a)))]));
      // Rows joined to a hit: a child pointing at a hit parent row, a parent a hit child points at.
      const joined = new Map(tables.map((t) => [t, new Set<Record<string, unknown>>()]));
      for (const t of tables) {
        for (const fk of fksOf(db, t)) {
          const parent = shownNamed(fk.table);
          if (!parent || !needed.has(parent) || !fk.to) continue;
          for (const row of all[t]!) {
            const ref = all[parent]!.find((p) => sameKey(p[fk.to!], row[fk.from]));
            if (!ref) continue;
            if (hits.get(parent)!.has(ref)) joined.get(t)!.add(row);
            if (hits.get(t)!.has(row)) joined.get(parent)!.add(ref);
          }
        }
      }
      // Children before their parents, so a parent keeps room for the rows its chosen children point to.
      const childrenOf = (t: string) => tables.filter((c) => c !== t && fksOf(db, c).some((fk) => shownNamed(fk.table) === t));
      const order: string[] = [];
      for (const group of [tables.filter((t) => goldTables.has(t)), tables.filter((t) => !goldTables.has(t))]) {
        while (group.some((t) => !order.includes(t))) {
          const left = group.filter((t) => !order.includes(t));
          order.push(left.find((t) => childrenOf(t).filter((c) => group.includes(c)).every((c) => order.includes(c))) ?? left[0]!);
        }
      }
      const sample: TestTables = {};
      for (const t of order) {
        if (!goldTables.has(t) && goldTables.size) {
          // A table the prompt lists but the answer does not read: a few rows joined to those already there.
          const fits = (row: Record<string, unknown>) =>
            fksOf(db, t).every((fk) => {
              const parent = shownNamed(fk.table);
              return !parent || !sample[parent] || !fk.to || row[fk.from] === null || sample[parent]!.some((p) => sameKey(p[fk.to!], row[fk.from]));
            });
          const fitting = all[t]!.filter(fits);
          sample[t] = (fitting.length ? fitting : all[t]!).slice(0, DATA_MIN_ROWS + 1);
          continue;
        }
        const pointedAt = new Set(childrenOf(t).flatMap((c) => fksOf(db, c).filter((fk) => shownNamed(fk.table) === t && fk.to).flatMap((fk) => (sample[c] ?? []).map((row) => all[t]!.find((p) => sameKey(p[fk.to!], row[fk.from]))).filter((p): p is Record<string, unknown> => !!p))));
        const first = [...new Set([...pointedAt, ...hits.get(t)!, ...joined.get(t)!])];
        const rest = all[t]!.filter((r) => !first.includes(r));
        // Rows that fail the conditions besides those that meet them, when the table has them.
        const others = Math.min(failing, rest.length);
        const wanted = Math.min(cap, Math.max(DATA_MIN_ROWS + 1, Math.min(first.length, meeting) + others, pointedAt.size));
        sample[t] = [...first.slice(0, Math.max(wanted - others, Math.min(pointedAt.size, cap))), ...rest].slice(0, wanted);
      }
      // Every row's parents: added while the parent table has room, else the child is left out; until nothing changes.
      const leftOut = new Set<Record<string, unknown>>();
      for (let changed = true; changed; ) {
        changed = false;
        for (const t of tables) {
          for (const fk of fksOf(db, t)) {
            const parent = shownNamed(fk.table);
            if (!parent || !fk.to) continue;
            sample[t] = sample[t]!.filter((row) => {
              const ref = row[fk.from];
              if (ref === null || ref === undefined || sample[parent]!.some((p) => sameKey(p[fk.to!], ref))) return true;
              const found = all[parent]!.find((p) => sameKey(p[fk.to!], ref));
              if (found && !leftOut.has(found) && sample[parent]!.length < cap) return (sample[parent]!.push(found), (changed = true));
              // Left out for good, so a grandchild cannot bring it back (and its own parent trouble with it).
              leftOut.add(row);
              changed = true;
              return false;
            });
          }
        }
      }
      return sample;
    };
    const tries = [new Set([...literals, ...answer.flat().map(key)]), ...answer.slice(0, 3).map((row) => new Set([...literals, ...row.map(key)])), new Set(literals)];
    let first: TestTables | undefined;
    // Few rows first (3 that meet the conditions, 2 that fail them), more when those do not make the answer informative.
    for (const [values, failing, meeting] of tries.flatMap((v) => [[v, 2, 3], [v, 2, cap], [v, 0, cap]] as const)) {
      const sample = pick(values, failing, meeting);
      if (informative(goldRows(q, keptRows(q, sample)).rows)) return sample;
      first ??= sample;
    }
    return first!;
  };

  /** The gold query's result on the test tables, in a scratch in-memory copy of their schema. */
  const goldRows = (q: Question, tables: TestTables): { columns: string[]; rows: unknown[][] } => {
    const scratch = new Database(":memory:");
    scratch.pragma("foreign_keys = OFF");
    try {
      for (const [t, rows] of Object.entries(tables)) {
        const { sql } = dbOf(q).prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").get(t) as { sql: string };
        scratch.exec(sql);
        for (const row of rows) {
          const cols = Object.keys(row);
          // A row the schema refuses (a repeated key, a NULL where none may be) is left out, as the scratch database does.
          try {
            scratch.prepare(`INSERT INTO "${t}" (${cols.map((c) => `"${c}"`).join(", ")}) VALUES (${cols.map(() => "?").join(", ")})`).run(...cols.map((c) => (typeof row[c] === "boolean" ? Number(row[c]) : row[c])));
          } catch {
            // left out
          }
        }
      }
      const stmt = scratch.prepare(q.goldSql!);
      return { columns: stmt.columns().map((c) => c.name), rows: stmt.raw(true).all() as unknown[][] };
    } catch {
      return { columns: [], rows: [] };
    } finally {
      scratch.close();
    }
  };
  const sentData = new Map<string, TestTables>();

  /** Commented JavaScript whose result is the gold query's result on the test data as the scratch database kept it. */
  const coderReply = (q: Question): MockReply => {
    const { columns, rows } = goldRows(q, keptRows(q, sentData.get(q.question) ?? {}));
    const objects = rows.map((r) => Object.fromEntries(columns.map((c, i) => [c, r[i]])));
    // A question whose gold orders its rows gets code that sorts (here: into the order worked out), as a model's would:
    // the test then compares in order.
    const ordered = /\border\s+by\b/i.test(q.goldSql ?? "") && !/\blimit\s+1\b/i.test(q.goldSql ?? "");
    return text(
      "The answer follows from the test tables directly.\n```javascript\n" +
        `// ${q.question}\n// worked out from the tables above: the rows the question asks for, with its columns only\n` +
        // A backtick in a value escaped, so a "```" in the data cannot close the code block early.
        `const answer = ${JSON.stringify(objects).replace(/`/g, "\\u0060")};\n` +
        (ordered
          ? "// in the order the question asks for: sort by the rank worked out above\nresult = answer.map((row, rank) => ({ row, rank })).sort((a, b) => a.rank - b.rank).map((x) => x.row);\n```"
          : "// the result is the answer as row objects\nresult = answer;\n```"),
    );
  };

  /** Test tables as the data prompt asks for them: every table it lists (those without rows empty), every listed column in each row. */
  const dataReply = (req: MockRequest, tables: TestTables) => {
    const listed = promptTables(req);
    const rowsOf = (t: string) => Object.entries(tables).find(([n]) => n.toLowerCase() === t.toLowerCase())?.[1] ?? [];
    const value = (row: Record<string, unknown>, c: string) => row[c] ?? Object.entries(row).find(([k]) => k.toLowerCase() === c.toLowerCase())?.[1] ?? null;
    return Object.fromEntries([...listed].map(([t, columns]) => [t, rowsOf(t).map((r) => Object.fromEntries(columns.map((c) => [c, value(r, c)])))]));
  };

  const respond = (req: MockRequest): MockReply => {
    const role = req.role;
    calls.set(role, (calls.get(role) ?? 0) + 1);
    const q = questionOf(req);
    const prompt = allText(req);
    const last = lastUser(req);
    switch (role as AgentRole) {
      case "generator":
        return sqlBlock(firstSql(q), "The question needs these tables and filters.");
      case "fixer":
      case "solver":
      case "refiner":
      case "reviser":
        return sqlBlock(gold(q), "Corrected after checking every table, join and filter.");
      case "sampler":
        // One angle of the memory's sampling goes wrong, so the memory gets entries to learn from.
        return sqlBlock(last.includes("subqueries") ? wrongResult(gold(q)) : gold(q), "Sampled.");
      case "writer": {
        // Memo-SQL's writer (one style of a solved path) and R³'s writer (a conversation) share the role.
        if (last.includes("sub-questions were solved")) return sqlBlock(firstSql(q), "Combining the solved steps.");
        if (last.includes("Their reviews:")) {
          const found = /^Reviewer \d+ \(.*\):\n(?!No problems)/m.test(last);
          return found ? sqlBlock(gold(q), "Reviewer 1 is right; revised.") : sqlBlock(sqlAfter(last, "your query and its result.") ?? gold(q), "The reviewers found nothing to change: I keep my query.");
        }
        if (last.includes("Running your query failed")) return sqlBlock(gold(q), "The table name was wrong.");
        return sqlBlock(firstSql(q), "```python\nrows = [r for r in table if matches(r)]\n```");
      }
      case "linker":
        return json({ keywords: (q?.question ?? "").split(/\W+/).filter((w) => w.length > 4).slice(0, 4) });
      case "persona": {
        const n = Number(/Propose (\d+) reviewer/.exec(last)?.[1] ?? 1);
        const kinds = ["database engineer specialised in joins", "data analyst of this domain", "SQL performance consultant", "statistician", "auditor"];
        return json({ reviewers: Array.from({ length: n }, (_, i) => ({ profession: kinds[i % kinds.length]!, focus: "the filters and the columns returned" })) });
      }
      case "reviewer": {
        const sql = sqlAfter(last, "The query:");
        return text(isGold(q, sql) ? "No problems found: the query answers the question and its result looks right." : "The result does not answer the question: a filter or join is wrong. Fix the conditions so the asked rows come back.");
      }
      case "feedback":
        if (prompt.includes('"correct"')) return json({ correct: isGold(q, sqlAfter(last, "Revised SQL:")), reason: "compared with the correct query" });
        return text("The incorrect query filters the wrong rows: it misses a condition the question states, and returns a different result.");
      case "corrector":
        return sqlBlock(gold(q), "Checked against each reminder; the filter needed fixing.");
      case "manager":
        if (prompt.includes("You maintain a self-correction guideline")) {
          const questions = [...last.matchAll(/^Mistake \d+\nQuestion: (.*)$/gm)].map((m) => m[1]!);
          const sofar = /Guideline so far:\n([\s\S]*?)\n\nNew mistakes/.exec(last)?.[1] ?? "";
          const kept = sofar.startsWith("(empty") ? "" : `${sofar.trim()}\n`;
          return text(`# Self-correction guideline\n\n${kept}${questions.map((x, i) => `${i + 1}. Reminder from "${x}": did I apply every condition of the question?\n   - Ask: which filter does each phrase of the question map to?`).join("\n")}`);
        }
        return text("Name each wrong filter or join precisely and say which condition of the question it breaks.");
      case "decomposer":
        return json({ simple: false, fits: true, subQuestions: ["Which rows satisfy the question's conditions?", "What does the question ask for about those rows?"] });
      case "reflector":
        return json({ problem: false, issue: "" });
      case "critic": {
        const sql = sqlAfter(last, "Query under review:");
        return isGold(q, sql) ? json({ wrong: false, errorTypes: [], suggestions: "" }) : json({ wrong: true, errorTypes: ["filter_condition_error"], suggestions: "Apply the question's conditions and return its rows." });
      }
      case "labeler":
        return json({ errorTypes: ["select_output_error"], suggestions: "Return the rows the question asks for instead of an empty or wrapped result." });
      case "data":
        if (!q?.goldSql) return text('```json\n{"tables": {}}\n```');
        sentData.set(q.question, testData(req, q));
        // As the prompt asks: per table its columns once, each row an array.
        // As the prompt asks: every table it lists, each row an object of its listed columns' values.
        return text(`Rows covering the conditions:\n\`\`\`json\n${JSON.stringify({ tables: dataReply(req, sentData.get(q.question)!) })}\n\`\`\``);
      case "coder":
        return q?.goldSql ? coderReply(q) : text("```javascript\n// nothing known\nresult = [];\n```");
      case "selector":
        return text("A computes what the question asks. <answer>A</answer>");
      case "explainer":
        // Self-debugging's judge: wrong exactly when the query under review is not the gold.
        return text(isGold(q, sqlAfter(last, "Predicted query:")) ? "The query returns what the question asks.\nVerdict: correct" : "A filter or join does not match the question.\nVerdict: wrong");
      case "debugger":
        return sqlBlock(gold(q), "Corrected from the explanation.");
      default:
        unrouted.push(req);
        return sqlBlock(gold(q), "");
    }
  };
  /**
   * Told of a structured reply a schema-only stand-in made in the agents' stead: the data agent's rows are kept for
   * its coder, whose code then answers on them as on its own.
   */
  const onSchemaReply = (req: MockRequest, value: unknown) => {
    const q = questionOf(req);
    const tables = (value as { tables?: Record<string, unknown> } | null)?.tables;
    if (req.role !== "data" || !q || !tables) return;
    sentData.set(q.question, Object.fromEntries(Object.entries(tables).map(([t, rows]) => [t, Array.isArray(rows) ? (rows as Record<string, unknown>[]) : []])));
  };
  return { respond, calls, unrouted, onSchemaReply };
}

