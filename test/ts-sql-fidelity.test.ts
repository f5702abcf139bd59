/**
 * Issue 28, TS-SQL (points 13–17): row order compared only when order is asked for, the data agent's reply schema
 * naming the question's tables and columns, retries that would repeat their prompt stopped, and diagnostics that say
 * what happened (an empty reply, an empty result blamed on the data or the code).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import { tsSqlOutcome, tsSqlRefineSpec } from "../graphs/ts-sql.ts";
import { dataReplySchema, rowsOfReply } from "../nodes/ts-sql/data.ts";
import { questionValues } from "../nodes/ts-sql/common.ts";
import { readSchema } from "../tools/schema.ts";
import { sentJsonSchema } from "../tools/models/llm.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { type Responder, type ScriptedProvider, scriptedProvider } from "./support/scripted-models.ts";

const SCHOOLS = `
CREATE TABLE district (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE school (id INTEGER PRIMARY KEY, district_id INTEGER NOT NULL REFERENCES district(id), name TEXT NOT NULL, status TEXT CHECK (status IN ('Active', 'Closed')), score REAL);
INSERT INTO district VALUES (1, 'North'), (2, 'South');
INSERT INTO school VALUES (1, 1, 'Real One', 'Active', 700.5), (2, 2, 'Real Two', 'Closed', 300), (3, 1, 'Real Three', 'Active', 650);
`;
const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value)}\n\`\`\``;
const sql = (text: string) => `\`\`\`sql\n${text}\n\`\`\``;
const js = (text: string) => `\`\`\`javascript\n${text}\n\`\`\``;

// Gamma comes first by id, so the SQL returns Gamma, Alpha; a code sorting the names returns Alpha, Gamma.
const DATA = {
  tables: {
    district: [{ id: 1, name: "D1" }],
    school: [
      { id: 1, district_id: 1, name: "Gamma", status: "Active", score: 500 },
      { id: 2, district_id: 1, name: "Beta", status: "Closed", score: 650 },
      { id: 3, district_id: 1, name: "Alpha", status: "Active", score: 580 },
    ],
  },
};
const ACTIVE = "Which schools are active?";
const ACTIVE_SQL = "SELECT name FROM school WHERE status = 'Active'";
const SORTED_CODE = `// the active schools' names
const names = tables.school.filter((s) => s.status === "Active").map((s) => ({ name: s.name }));
// sorted by name, for readability
result = names.sort((a, b) => (a.name < b.name ? -1 : 1));`;

const provider = (script: Record<string, Responder>): ScriptedProvider => scriptedProvider({ linker: json({ keywords: ["active", "school"] }), ...script });
const calls = (models: ScriptedProvider, role: string) => models.shown.filter((s) => s.role === role);
const userTurn = (s: { messages: { role: string; content: string }[] }) => s.messages.filter((m) => m.role === "user").map((m) => m.content).join("\n");

let dir: string;
let dbPath: string;
const executor = createExecutor({ size: 2 });
beforeAll(() => {
  dir = makeTempDir();
  dbPath = makeDb(dir, "schools.sqlite", SCHOOLS);
});
afterAll(async () => {
  await executor.close();
  removeTempDir(dir);
});

let threads = 0;
async function refine(models: ScriptedProvider, question: string, given: string, options: Record<string, unknown> = {}, db = dbPath) {
  const graph = tsSqlRefineSpec.build({ models, executor }, { checkpointer: new MemorySaver(), ...options });
  return graph.invoke({ question, dbPath: db, dbId: "schools", sql: given }, { configurable: { thread_id: `f${++threads}` }, recursionLimit: 100 });
}

describe("point 13: row order counts only when order is asked for", () => {
  it("a right unordered SQL passes a test whose code sorts for readability, and is not revised", async () => {
    const models = provider({ data: json(DATA), coder: js(SORTED_CODE), reviser: sql("SELECT name FROM school WHERE status = 'Active' ORDER BY name") });
    const state = await refine(models, ACTIVE, ACTIVE_SQL);
    expect(state.testRun).toMatchObject({ sql: ACTIVE_SQL, match: true, comparison: "multiset" });
    expect(calls(models, "reviser")).toHaveLength(0);
    expect(state.sql).toBe(ACTIVE_SQL);
  });

  it("when the question asks for an order, the same SQL fails and is revised", async () => {
    const ordered = "SELECT name FROM school WHERE status = 'Active' ORDER BY name";
    const models = provider({ data: json(DATA), coder: js(SORTED_CODE), reviser: sql(ordered) });
    const state = await refine(models, "List the active schools in alphabetical order.", ACTIVE_SQL);
    expect(calls(models, "reviser")).toHaveLength(1);
    expect(state.testRun).toMatchObject({ sql: ordered, match: true, comparison: "ordered" });
  });
});

describe("point 14: the paper's two set-ups without the data agent", () => {
  it("schema (Table 4): the coder sees no rows; sample (Figure 4): it sees 1/10 of each table's rows, capped and said so", async () => {
    const big = makeDb(dir, "big-schools.sqlite", `${SCHOOLS.split("INSERT")[0]}
      INSERT INTO district VALUES (1, 'North');
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 1500)
      INSERT INTO school SELECT i, 1, 'School ' || i, CASE WHEN i % 2 THEN 'Active' ELSE 'Closed' END, i FROM n;`);
    const code = js("// the active schools\nresult = tables.school.filter((s) => s.status === 'Active').map((s) => ({ name: s.name }));");
    const schemaOnly = provider({ coder: code, reviser: sql(ACTIVE_SQL) });
    const a = await refine(schemaOnly, ACTIVE, ACTIVE_SQL, { noDataAgent: "schema" }, big);
    expect(calls(schemaOnly, "data")).toHaveLength(0);
    const coderPrompt = userTurn(calls(schemaOnly, "coder")[0]!);
    expect(coderPrompt).toMatch(/Test data:\n\(not shown: write the code from the tables' structure above/);
    expect(coderPrompt).not.toMatch(/School \d+/);
    expect(tsSqlOutcome(a)).toMatchObject({ tested: true });

    const sampling = provider({ coder: code, reviser: sql(ACTIVE_SQL) });
    const b = await refine(sampling, ACTIVE, ACTIVE_SQL, { noDataAgent: "sample" }, big);
    expect(b.testData.tables.school).toHaveLength(100); // 1/10 of 1,500 is 150: capped at 100
    expect(b.testData.tables.district).toHaveLength(1);
    expect(userTurn(calls(sampling, "coder")[0]!)).toMatch(/School \d+/);
    expect(tsSqlOutcome(b)).toMatchObject({ cappedSampleTables: 1 });
    expect(b.attempts.find((x: { node: string }) => x.node === "sample")).toMatchObject({ note: "100 rows, less than 1/10, of school" });
  });
});

describe("point 15: the data agent's structured output names the question's tables and columns", () => {
  /** Every object strict-mode ready: all its properties required, no others allowed. */
  function strictProblems(node: unknown, at = "$"): string[] {
    if (!node || typeof node !== "object") return [];
    const o = node as Record<string, unknown>;
    const out: string[] = [];
    if (o.type === "object") {
      const props = Object.keys((o.properties as object | undefined) ?? {});
      if (o.additionalProperties !== false) out.push(`${at}: additionalProperties is not false`);
      if (!props.length) out.push(`${at}: no named properties`);
      const required = (o.required as string[] | undefined) ?? [];
      if (props.some((p) => !required.includes(p))) out.push(`${at}: not every property required`);
    }
    for (const [k, v] of Object.entries(o)) out.push(...strictProblems(v, `${at}.${k}`));
    return out;
  }

  it("the JSON schema sent lists the relevant tables and their columns, strict-mode ready", async () => {
    const schema = await readSchema(dbPath, { executor });
    type Column = { type?: string | string[]; description?: string };
    type Sent = { properties: { tables: { properties: Record<string, { minItems: number; items: { properties: Record<string, Column>; required: string[] } }> } } };
    const sent = sentJsonSchema(dataReplySchema(schema, ["district", "school"])) as unknown as Sent;
    expect(Object.keys(sent.properties.tables.properties)).toEqual(["district", "school"]);
    // Issue 40: each row an object of exactly the table's columns, each typed as the scratch database stores it
    // (NOT NULL and key columns never null), at least 3 rows a table as the prompt asks.
    const school = sent.properties.tables.properties.school!;
    expect(school.minItems).toBe(3);
    expect(school.items.required).toEqual(["id", "district_id", "name", "status", "score"]);
    expect(school.items.properties.id).toMatchObject({ type: "integer" });
    expect(school.items.properties.name).toMatchObject({ type: "string", description: 'e.g. "Real One", "Real Two", "Real Three"' });
    expect(school.items.properties.score).toMatchObject({ type: ["number", "null"] });
    // A foreign key names the key it holds (a value naming no row there is repaired before loading, not refused).
    expect(school.items.properties.district_id!.description).toMatch(/^a district\.id of a district row; e\.g\. 1/);
    expect(strictProblems(sent)).toEqual([]);
    // Looser to read than to ask: a table left out has no rows, a column left out is NULL, names in any case, numbers
    // written as text in a numeric column as SQLite stores them; the older {columns, rows} form is read too.
    const reply = dataReplySchema(schema, ["district", "school"]);
    expect(rowsOfReply(reply.parse({ tables: { SCHOOL: { columns: ["ID", "district_id", "name"], rows: [[1, 1, "A"]] } } }).tables)).toEqual({ school: [{ id: 1, district_id: 1, name: "A", status: null, score: null }] });
    expect(rowsOfReply(reply.parse({ tables: { SCHOOL: [{ ID: "1", district_id: 1, name: "A" }] } }).tables)).toEqual({ school: [{ id: 1, district_id: 1, name: "A", status: null, score: null }] });
    expect(reply.safeParse({ tables: { pupils: [] } }).success).toBe(false);
    // A row whose length is not its columns', an unknown column, a column named twice: refused with a line naming it.
    const short = reply.safeParse({ tables: { school: { columns: ["id", "name"], rows: [[1, "A"], [2]] } } });
    expect(short.success ? "" : short.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")).toBe("tables.school.1: row 2 has 1 values for 2 columns");
    expect(reply.safeParse({ tables: { school: { columns: ["id", "pupils"], rows: [[1, 2]] } } }).success).toBe(false);
    expect(reply.safeParse({ tables: { school: { columns: ["id", "ID"], rows: [[1, 2]] } } }).success).toBe(false);
  });

  it("the schema offers the question's values (a number and its neighbours, a quoted text) to the columns they could fill, from the question alone", async () => {
    const schema = await readSchema(dbPath, { executor });
    type Sent = { properties: { tables: { properties: Record<string, { items: { properties: Record<string, { description?: string }> } }> } } };
    const describe = (question: string) => {
      const offered = questionValues(question, "", schema, new Map([["school", ["id", "district_id", "name", "score"]]]));
      const sent = sentJsonSchema(dataReplySchema(schema, ["school"], undefined, null, offered)) as unknown as Sent;
      return sent.properties.tables.properties.school!.items.properties;
    };
    const columns = describe("Which schools called 'Sunrise' score above 600?");
    // Rows on either side of the bound can be written from the schema alone; the text goes to the text column.
    expect(columns.score!.description).toMatch(/^e\.g\. 600, 599, 601, /);
    expect(columns.name!.description).toMatch(/^e\.g\. "Sunrise", /);
    // Key columns are offered nothing, and a column not shown nothing either.
    expect(columns.id!.description).not.toMatch(/600/);
    expect(columns.district_id!.description ?? "").not.toMatch(/600/);
    expect(columns.status!.description).not.toMatch(/Sunrise|600/);
  });

  it("a model that fills in the schema it is given returns usable test data", async () => {
    // A schema-following data agent: one row per table the schema names, each column it names set from its type.
    const fromSchema: Responder = ({ messages }) => {
      const schemaText = /matches this JSON schema:\n(.*)$/s.exec(messages.at(-1)!.content)![1]!;
      const tables = (JSON.parse(schemaText) as { properties: { tables: { properties?: Record<string, { items: { properties: Record<string, { type?: string }> } }> } } }).properties.tables.properties ?? {};
      return JSON.stringify({ tables: Object.fromEntries(Object.entries(tables).map(([t, s]) => [t, [Object.fromEntries(Object.keys(s.items.properties).map((c) => [c, c === "status" ? "Active" : c === "name" ? "N" : 1]))]])) });
    };
    const models = provider({ data: fromSchema, coder: js("// the active schools\nresult = tables.school.filter((s) => s.status === 'Active').map((s) => ({ name: s.name }));"), reviser: sql(ACTIVE_SQL) });
    const state = await refine(models, ACTIVE, ACTIVE_SQL);
    expect(tsSqlOutcome(state)).toMatchObject({ tested: true, testTables: 2, testRows: 2 });
  });
});

describe("point 16: a retry that would send the same prompt again stops instead", () => {
  it("the data agent repeating its rows is not asked a third time with the same prompt", async () => {
    // A row the schema's CHECK refuses (a dangling key would be repaired, not refused).
    const invalid = { tables: { district: [{ id: 1, name: "D1" }], school: [{ id: 1, district_id: 1, name: "Gamma", status: "Pending", score: 500 }, ...DATA.tables.school.slice(1)] } };
    const models = provider({ data: json(invalid), coder: js(SORTED_CODE), reviser: sql(ACTIVE_SQL) });
    const state = await refine(models, ACTIVE, ACTIVE_SQL, { maxDataRounds: 3 });
    const prompts = calls(models, "data").map((s) => JSON.stringify(s.messages));
    expect(prompts).toHaveLength(2);
    expect(new Set(prompts).size).toBe(2);
    expect(state.dataStopReason).toMatch(/data turn 3 would send turn 2's prompt again/);
    expect(tsSqlOutcome(state)).toMatchObject({ dataRounds: 2, dataStopReason: expect.stringMatching(/stopped/) });
  });

  it("a reviser whose SQL does not change is not sent its prompt again", async () => {
    const wrong = "SELECT name FROM school";
    const models = provider({ data: json(DATA), coder: js(SORTED_CODE), reviser: sql(wrong) });
    const state = await refine(models, ACTIVE, wrong, { maxRevisions: 5 });
    const prompts = calls(models, "reviser").map((s) => JSON.stringify(s.messages));
    expect(prompts).toHaveLength(1);
    expect(state.stopReason).toMatch(/revision 2 would send revision 1's prompt again/);
    expect(tsSqlOutcome(state)).toMatchObject({ revisions: 1, testsFailed: 2, finalPasses: false, revisionStopReason: expect.stringMatching(/SQL did not change/) });
    expect(state.attempts.at(-2)).toMatchObject({ node: "test", note: expect.stringMatching(/no SQL passed the test case in 1 revision\(s\) \(revision 2 would send/) });
  });
});

describe("point 17: diagnostics say what happened", () => {
  it("an empty data reply is 'empty data reply', not 'invalid data'", async () => {
    const models = provider({ data: json({ tables: {} }), coder: js(SORTED_CODE), reviser: sql(ACTIVE_SQL) });
    const state = await refine(models, ACTIVE, ACTIVE_SQL);
    expect(tsSqlOutcome(state)).toMatchObject({ tested: false, skipped: "empty data reply" });
    // Rows given and all refused are still invalid data.
    const refused = { tables: { school: [{ id: 1, district_id: 9, name: "Gamma", status: "Active", score: 1 }] } };
    const bad = await refine(provider({ data: json(refused), coder: js(SORTED_CODE), reviser: sql(ACTIVE_SQL) }), ACTIVE, ACTIVE_SQL);
    expect(tsSqlOutcome(bad)).toMatchObject({ tested: false, skipped: "invalid data" });
  });

  it("an empty test result is blamed on the data when its rows lack the linked value, on the code when they have it", async () => {
    const closedOnly = { tables: { district: [{ id: 1, name: "D1" }], school: [{ id: 1, district_id: 1, name: "Beta", status: "Closed", score: 1 }] } };
    const code = js(SORTED_CODE);
    const noActive = provider({ data: json(closedOnly), coder: code, reviser: sql(ACTIVE_SQL) });
    const blamedOnData = await refine(noActive, ACTIVE, ACTIVE_SQL);
    expect(blamedOnData.linking.values.some((v: { value: string }) => v.value === "Active")).toBe(true);
    expect(tsSqlOutcome(blamedOnData)).toMatchObject({ tested: false, skipped: "empty test result: the data lacks the linked values" });
    // Asking the coder again cannot help when the rows are not there.
    expect(calls(noActive, "coder")).toHaveLength(1);
    expect(blamedOnData.codeCandidates[0].problem).toMatch(/the test data lacks what the question's conditions name/);

    const lowerCase = js(SORTED_CODE.replace('s.status === "Active"', 's.status === "active"'));
    const codeFault = provider({ data: json(DATA), coder: lowerCase, reviser: sql(ACTIVE_SQL) });
    const blamedOnCode = await refine(codeFault, ACTIVE, ACTIVE_SQL, { maxCodeRefinements: 1 });
    expect(calls(codeFault, "coder")).toHaveLength(2);
    expect(blamedOnCode.codeCandidates[0].problem).toMatch(/the test data has rows with what the question's conditions name; check the filters/);
    expect(tsSqlOutcome(blamedOnCode)).toMatchObject({ tested: false, skipped: "empty test result: the code's" });
  });
});

describe("issue 32, second pass: the data agent sees only what the question needs, and replies in columns", () => {
  it("columns the question does not need are left out of the data prompt (said there, counted in the outcome); the coder sees the columns the rows hold, not CREATE statements", async () => {
    const wide = makeDb(dir, "wide-schools.sqlite", `
      CREATE TABLE district (id INTEGER PRIMARY KEY, name TEXT NOT NULL, mayor TEXT);
      CREATE TABLE school (id INTEGER PRIMARY KEY, district_id INTEGER NOT NULL REFERENCES district(id), name TEXT NOT NULL, status TEXT, motto TEXT, founded TEXT);
      INSERT INTO district VALUES (1, 'North', 'Ann Lee');
      INSERT INTO school VALUES (1, 1, 'Real One', 'Active', 'Learn well', '1901-01-01'), (2, 1, 'Real Two', 'Closed', 'Be kind', '1950-05-05');`);
    const reply = { tables: { district: { columns: ["id", "name"], rows: [[1, "D1"]] }, school: { columns: ["id", "district_id", "name", "status"], rows: [[1, 1, "Gamma", "Active"], [2, 1, "Beta", "Closed"]] } } };
    const code = js("// the active schools\nresult = tables.school.filter((s) => s.status === 'Active').map((s) => ({ name: s.name }));");
    const models = provider({ data: json(reply), coder: code, reviser: sql(ACTIVE_SQL) });
    const state = await refine(models, ACTIVE, ACTIVE_SQL, {}, wide);
    const data = userTurn(calls(models, "data")[0]!);
    const own = data.slice(data.indexOf("(End of the example.)"));
    expect(own).not.toMatch(/CREATE TABLE/);
    expect(own).not.toMatch(/motto|founded|mayor|Learn well/);
    expect(own).toContain('school: id INTEGER key; district_id INTEGER not null -> district.id; name TEXT not null e.g. "Real One", "Real Two"; status TEXT e.g. "Active", "Closed" (+2 other columns not needed here)');
    expect(own).toMatch(/a column not shown is left NULL/);
    expect(tsSqlOutcome(state)).toMatchObject({ tested: true, dataColumnsNotShown: 3, testRows: 3 });
    // The rows read back hold the columns written, not the NULL ones left out, so neither the coder nor the reviser
    // is shown them.
    expect(Object.keys(state.testData!.tables.school![0]!)).toEqual(["id", "district_id", "name", "status"]);
    const coder = userTurn(calls(models, "coder")[0]!);
    const coderOwn = coder.slice(coder.indexOf("(End of the example.)"));
    expect(coderOwn).not.toMatch(/CREATE TABLE|motto|mayor/);
    // Structure and rows in one listing: each table's columns described once, in the order of its rows' values.
    expect(coderOwn).toContain('school (2 rows): id INTEGER key; district_id INTEGER not null -> district.id; name TEXT not null; status TEXT (+2 other columns not needed here):\n  [1,1,"Gamma","Active"]');
    expect(coderOwn).not.toMatch(/columns id, district_id/);
  });
});
