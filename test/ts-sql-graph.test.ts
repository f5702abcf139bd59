import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MemorySaver } from "@langchain/langgraph";
import { summarizeTsSql, tsSqlOutcome, tsSqlRefineSpec, tsSqlSpec } from "../graphs/ts-sql.ts";
import { outcomeOf } from "../graphs/outcome.ts";
import type { GraphSpec } from "../graphs/spec.ts";
import type { ModelOverrides } from "../tools/models/models.ts";
import { createExecutor } from "../tools/sqlite/executor.ts";
import { makeDb, makeTempDir, removeTempDir, sha256File } from "./support/fixtures.ts";
import { type Responder, type ScriptedProvider, scriptedProvider } from "./support/scripted-models.ts";

// The real rows carry a sentinel: it may reach the generator (its schema shows sample values) and the data agent
// (examples of formats), never a prompt of the test-code or revision stage.
const SENTINEL = "SENTINEL-7f3a";
const SCHOOLS = `
CREATE TABLE district (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
CREATE TABLE school (
  id INTEGER PRIMARY KEY,
  district_id INTEGER NOT NULL REFERENCES district(id),
  name TEXT NOT NULL,
  status TEXT CHECK (status IN ('Active', 'Closed')),
  score REAL
);
INSERT INTO district VALUES (1, 'North'), (2, 'South');
INSERT INTO school VALUES (1, 1, '${SENTINEL}', 'Active', 700.5), (2, 2, 'Real Two', 'Closed', 300);
`;
const QUESTION = "Which active school has the highest score?";

const json = (value: unknown) => `\`\`\`json\n${JSON.stringify(value)}\n\`\`\``;
const sql = (text: string) => `\`\`\`sql\n${text}\n\`\`\``;
const js = (text: string) => `\`\`\`javascript\n${text}\n\`\`\``;

const GOOD_DATA = {
  tables: {
    district: [{ id: 1, name: "D1" }],
    school: [
      { id: 1, district_id: 1, name: "Alpha", status: "Active", score: 500 },
      { id: 2, district_id: 1, name: "Beta", status: "Closed", score: 650 },
      { id: 3, district_id: 1, name: "Gamma", status: "Active", score: 580 },
    ],
  },
};
/** A row the schema's CHECK refuses (a dangling foreign key is repaired before loading, not refused). */
const INVALID_DATA = { tables: { district: [{ id: 1, name: "D1" }], school: [...GOOD_DATA.tables.school.slice(0, 2), { id: 3, district_id: 1, name: "Gamma", status: "Pending", score: 580 }] } };
const WRONG_SQL = "SELECT name FROM school ORDER BY score DESC LIMIT 1";
const RIGHT_SQL = "SELECT name FROM school WHERE status = 'Active' ORDER BY score DESC LIMIT 1";
const ACTIVE_CODE = `// keep the active schools only
const active = tables.school.filter((s) => s.status === "Active");
// best score first; the top one answers the question
result = active.sort((a, b) => b.score - a.score).slice(0, 1).map((s) => ({ name: s.name }));`;
const ANY_CODE = `// the best score of all schools, active or not
result = [...school].sort((a, b) => b.score - a.score).slice(0, 1).map((s) => ({ name: s.name }));`;

/** A scripted provider with per-call model/temperature variants: `coder@m2` answers for model m2. */
function provider(script: Record<string, Responder>): ScriptedProvider & { variants: (ModelOverrides & { role: string })[] } {
  // `coder` answers only for the coder role's own model; the variants' scripts are `coder@<model>`.
  const base = scriptedProvider({ linker: json({ keywords: ["active", "school", "score"] }), coder: "(no script)", ...script });
  const variants: (ModelOverrides & { role: string })[] = [];
  return Object.assign(base, {
    variants,
    variant(role: string, overrides: ModelOverrides) {
      variants.push({ role, ...overrides });
      return base.forRole(overrides.model ? `${role}@${overrides.model}` : role);
    },
  });
}

const seen = (models: ScriptedProvider, role: string) =>
  models.shown.filter((s) => s.role === role || s.role.startsWith(`${role}@`)).map((s) => s.messages.map((m) => m.content).join("\n"));

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
async function run(spec: GraphSpec, models: ScriptedProvider, options: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) {
  const graph = spec.build({ models, executor }, { checkpointer: new MemorySaver(), ...options });
  return graph.invoke({ question: QUESTION, dbPath, dbId: "schools", ...extra }, { configurable: { thread_id: `t${++threads}` }, recursionLimit: 100 });
}

describe("ts-sql graph", () => {
  it("builds a test case (schema violations sent back), inspects the code, revises the SQL until it passes", async () => {
    const before = sha256File(dbPath);
    const models = provider({
      generator: sql(WRONG_SQL),
      data: [json(INVALID_DATA), json(GOOD_DATA)],
      // First code has no comments: inspection sends it back.
      coder: [js(ACTIVE_CODE.replace(/\/\/.*\n/g, "")), js(ACTIVE_CODE)],
      reviser: sql(RIGHT_SQL),
    });
    const state = await run(tsSqlSpec, models);

    expect(state.sql).toBe(RIGHT_SQL);
    expect(state.testRun).toMatchObject({ sql: RIGHT_SQL, ok: true, match: true });
    expect(state.testCode).toMatchObject({ how: "single", expected: { columns: ["name"], rows: [["Gamma"]] } });
    expect(state.rounds).toBe(1);
    expect(state.initialSql).toBe(WRONG_SQL);
    expect(state.execution).toMatchObject({ ok: true, preview: { rows: [[SENTINEL]] } });
    expect(state.dataRounds).toBe(2);
    expect(state.attempts.map((a: { node: string }) => a.node)).toEqual(
      expect.arrayContaining(["generate", "data", "check", "inspect", "vote", "test", "revise", "execute"]),
    );

    // The schema violation went back to the data agent.
    const dataSaw = seen(models, "data");
    expect(dataSaw).toHaveLength(2);
    expect(dataSaw[1]).toMatch(/school row 3: CHECK constraint failed/);
    // The retry shows the rows as the agent wrote them (the refused one included), not only the kept ones.
    // (a row as a JSON array under its table's columns: the compact form every prompt shows test rows in).
    expect(dataSaw[1]).toMatch(/school \(3 rows; columns id, district_id, name, status, score\):/);
    expect(dataSaw[1]).toContain('[3,1,"Gamma","Pending",580]');
    // The shared linking feeds the data agent: the linked columns and the stored values the keywords matched.
    expect(state.linking?.values.length).toBeGreaterThan(0);
    // A line per linked column, with the stored values matched in it.
    for (const v of state.linking!.values) expect(dataSaw[0]).toMatch(new RegExp(`^- ${v.table}\\.${v.column}, stored values? .*${JSON.stringify(v.value)}`, "m"));
    expect(dataSaw[0]).toMatch(/^- school\.\w+ \(for "/m);
    // Inspection sent the uncommented code back, and the temperature rose by 0.01.
    const coderSaw = seen(models, "coder");
    expect(coderSaw).toHaveLength(2);
    expect(coderSaw[1]).toMatch(/no comments/);
    expect(models.variants.filter((v) => v.role === "coder").map((v) => v.temperature)).toEqual([0, 0.01]);
    // The reviser got the test code, the expected result and the SQL's result on the test data.
    const reviserSaw = seen(models, "reviser");
    expect(reviserSaw).toHaveLength(1);
    expect(reviserSaw[0]).toContain(ACTIVE_CODE);
    expect(reviserSaw[0]).toMatch(/Expected result on the test data: columns \["name"\]; 1 row\(s\):\s+\["Gamma"\]/);
    expect(reviserSaw[0]).toMatch(/result on the test data: columns \["name"\]; 1 row\(s\):\s+\["Beta"\]/);

    // Issue 32: the generator (A.1) and the reviser (A.2) see the schema as a line per table, foreign keys inline,
    // not CREATE statements (the baseline keeps those: test/baseline-graph.test.ts).
    expect(seen(models, "generator")[0]).toMatch(/^school: id INTEGER key; district_id INTEGER not null -> district\.id; name TEXT not null; status TEXT;/m);
    expect(seen(models, "generator")[0]).not.toMatch(/CREATE TABLE/);
    expect(reviserSaw[0]).toMatch(/^school: id INTEGER key; district_id INTEGER not null -> district\.id/m);
    expect(reviserSaw[0]).not.toMatch(/CREATE TABLE/);

    // No real row in SQL generation and revision (§3.2, A.1, A.2: schema and synthetic rows only), nor in the test
    // code; the sentinel is visible where real data is allowed: the data agent's relevant linking (§3.1.1).
    expect(seen(models, "data").join("\n")).toContain(SENTINEL);
    for (const role of ["generator", "coder", "reviser"]) for (const prompt of seen(models, role)) expect(prompt).not.toContain(SENTINEL);
    for (const prompt of [...seen(models, "coder"), ...seen(models, "reviser")]) expect(prompt).not.toMatch(/Real Two|North|South/);
    // (the generator not even a stored category: the test rows may copy those, as the data prompt asks)
    for (const prompt of seen(models, "generator")) expect(prompt).not.toMatch(/Real Two|North|South|Active|Closed/);
    expect(sha256File(dbPath)).toBe(before);
    expect(state.usage.byRole).toMatchObject({ data: { calls: 2 }, coder: { calls: 2 }, reviser: { calls: 1 }, generator: { calls: 1 } });
  });

  it("non-duality without trusting the candidate: a wrong candidate does not steer the data; coverage gaps go back", async () => {
    // A wrong candidate that finds nothing in good data: it must not send the data agent back for data that fits it.
    const NOTHING = "SELECT name FROM school WHERE status = 'Closed' AND score > 900";
    const right = provider({ data: json(GOOD_DATA), coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) });
    const wrong = provider({ data: json(GOOD_DATA), coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) });
    const a = await run(tsSqlRefineSpec, right, {}, { sql: RIGHT_SQL });
    const b = await run(tsSqlRefineSpec, wrong, {}, { sql: NOTHING });
    expect(seen(right, "data")).toHaveLength(1);
    expect(seen(wrong, "data")).toHaveLength(1);
    expect(seen(wrong, "data")).toEqual(seen(right, "data"));
    expect(b.testData?.tables).toEqual(a.testData?.tables);
    // What the candidate made of the data is recorded, not acted on; the test then catches it.
    expect(b.testData).toMatchObject({ sqlRan: true, sqlRows: 0, sqlNote: expect.stringMatching(/no rows/) });
    expect(b.testRun).toMatchObject({ sql: RIGHT_SQL, match: true });
    expect(b.rounds).toBe(1);

    // Data without the stored value the question's keyword matched goes back, saying which value: whatever the SQL.
    const closedOnly = { tables: { district: [{ id: 1, name: "D1" }], school: [{ id: 1, district_id: 1, name: "Beta", status: "Closed", score: 650 }] } };
    const models = provider({ data: [json(closedOnly), json(GOOD_DATA)], coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) });
    const state = await run(tsSqlRefineSpec, models, {}, { sql: RIGHT_SQL });
    const dataSaw = seen(models, "data");
    expect(dataSaw).toHaveLength(2);
    expect(dataSaw[1]).toMatch(/matches the stored value "Active" in school\.status, but no test row has it/);
    expect(dataSaw[1]).not.toMatch(/the SQL returns|no rows on this data/);
    expect(state.testData).toMatchObject({ gaps: [], violations: [] });
    expect(state.testRun).toMatchObject({ match: true });
    expect(state.sql).toBe(RIGHT_SQL);
  });

  it("inspection: an aggregate over no matching rows (one row of NULLs) counts as empty", async () => {
    const BEST = "SELECT max(score) FROM school WHERE status = 'Active'";
    const nullCode = "// nothing is active in my reading\nresult = [[null]];";
    const bestCode = "// the best score among active schools\nresult = Math.max(...school.filter((s) => s.status === 'Active').map((s) => s.score));";
    const models = provider({ data: json(GOOD_DATA), coder: [js(nullCode), js(bestCode)], reviser: sql(BEST) });
    const state = await run(tsSqlRefineSpec, models, {}, { sql: BEST });
    const coderSaw = seen(models, "coder");
    expect(coderSaw).toHaveLength(2);
    expect(coderSaw[1]).toMatch(/the result is empty/);
    expect(state.testCode?.expected.rows).toEqual([[580]]);
    expect(state.testRun).toMatchObject({ match: true });
  });

  it("a bad data reply is asked again with what was wrong, within the turn and in the next one", async () => {
    const models = provider({ data: ["no json here", json({ tables: { school: "not rows" } }), json(GOOD_DATA)], coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) });
    const state = await run(tsSqlRefineSpec, models, {}, { sql: RIGHT_SQL });
    const dataSaw = models.shownTo("data");
    expect(dataSaw).toHaveLength(3);
    // The re-ask within the turn carries the reply and why it failed; the next turn's prompt says it too.
    expect(dataSaw[1]!.messages.map((m) => m.content).join("\n")).toMatch(/That reply was not usable \(.*JSON/);
    expect(dataSaw[1]!.messages.some((m) => m.role === "assistant" && m.content === "no json here")).toBe(true);
    expect(dataSaw[2]!.messages.map((m) => m.content).join("\n")).toMatch(/your last reply could not be used: .*tables\.school/);
    expect(state.dataRounds).toBe(2);
    expect(state.testRun).toMatchObject({ match: true });
  });

  it("data retries are bounded: bad data every time ends without a test case, SQL kept", async () => {
    const models = provider({ data: "no json here", coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) });
    const state = await run(tsSqlRefineSpec, models, { maxDataRounds: 2 }, { sql: WRONG_SQL });
    // Two turns, each with one re-ask.
    expect(seen(models, "data")).toHaveLength(4);
    expect(seen(models, "coder")).toHaveLength(0);
    expect(state.sql).toBe(WRONG_SQL);
    expect(state.execution).toMatchObject({ ok: true });
  });

  it("rows the schema refused are not in the test data the code and the reviser see: both sides use the same rows", async () => {
    // Data rounds run out with a refused row left: the scratch database drops it, so the test code must not count it.
    const models = provider({ data: json(INVALID_DATA), coder: js(ACTIVE_CODE), reviser: sql(WRONG_SQL) });
    const state = await run(tsSqlRefineSpec, models, { maxDataRounds: 1 }, { sql: RIGHT_SQL });
    expect(state.testData?.tables.school?.map((r: { name: unknown }) => r.name)).toEqual(["Alpha", "Beta"]);
    expect(state.testCode?.expected.rows).toEqual([["Alpha"]]);
    expect(state.testRun).toMatchObject({ match: true });
    expect(state.rounds).toBe(0);
    expect(state.sql).toBe(RIGHT_SQL);
    for (const prompt of seen(models, "coder")) expect(prompt).not.toContain('"Gamma"');
  });

  it("a huge string in the expected result is cut in the reviser's prompt", async () => {
    const huge = "// one school with a very long name\nresult = [{ name: 'x'.repeat(100000) }];";
    const models = provider({ data: json(GOOD_DATA), coder: js(huge), reviser: sql(RIGHT_SQL) });
    await run(tsSqlRefineSpec, models, { maxRevisions: 1 }, { sql: WRONG_SQL });
    const [prompt] = seen(models, "reviser");
    expect(prompt).toContain("(100000 characters)");
    expect(prompt!.length).toBeLessThan(10_000);
  });

  it("an executor without scratch databases: no retries, no test case, the SQL kept", async () => {
    const models = provider({ data: json(GOOD_DATA), coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) });
    const plain = { run: executor.run.bind(executor), close: async () => {} };
    const graph = tsSqlRefineSpec.build({ models, executor: plain }, { checkpointer: new MemorySaver() });
    const state = await graph.invoke({ question: QUESTION, dbPath, sql: WRONG_SQL }, { configurable: { thread_id: "plain" } });
    expect(seen(models, "data")).toHaveLength(1);
    expect(seen(models, "coder")).toHaveLength(0);
    expect(state.sql).toBe(WRONG_SQL);
    expect(state.attempts.some((a: { note?: string }) => a.note === "this executor cannot build scratch databases")).toBe(true);
  });

  it("the revision loop stops at maxRevisions and keeps the latest SQL that ran on the test data", async () => {
    const models = provider({
      data: json(GOOD_DATA),
      coder: js(ACTIVE_CODE),
      reviser: [sql("SELECT name FROM school WHERE score > 600"), sql("SELECT nme FROM school")],
    });
    const state = await run(tsSqlRefineSpec, models, { maxRevisions: 2 }, { sql: WRONG_SQL });
    expect(seen(models, "reviser")).toHaveLength(2);
    expect(state.rounds).toBe(2);
    expect(state.testRun).toMatchObject({ ok: false, match: false });
    expect(state.sql).toBe("SELECT name FROM school WHERE score > 600");
    // The second revision saw the first one's error-free but wrong result.
    expect(seen(models, "reviser")[1]).toMatch(/score > 600/);
    const zero = await run(tsSqlRefineSpec, provider({ data: json(GOOD_DATA), coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) }), { maxRevisions: 0 }, { sql: WRONG_SQL });
    expect(zero.sql).toBe(WRONG_SQL);
    expect(zero.rounds).toBe(0);
  });

  it("voting: the result most coder models agree on; all calls of the fan-out are kept", async () => {
    const models = provider({ data: json(GOOD_DATA), "coder@m1": js(ANY_CODE), "coder@m2": js(ACTIVE_CODE), "coder@m3": js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) });
    const graph = tsSqlRefineSpec.build({ models, executor }, { checkpointer: new MemorySaver(), coderModels: ["m1", "m2", "m3"] });
    const config = { configurable: { thread_id: "vote-1" }, recursionLimit: 100 };
    const state = await graph.invoke({ question: QUESTION, dbPath, sql: WRONG_SQL }, config);
    expect(state.testCode).toMatchObject({ model: "m2", how: "agreement", agreeing: 2 });
    expect(state.sql).toBe(RIGHT_SQL);
    expect(state.usage.byRole.coder.calls).toBe(3);
    expect(models.variants.filter((v) => v.role === "coder").map((v) => v.model).sort()).toEqual(["m1", "m2", "m3"]);
    // The step that ran the three coders kept the three calls.
    const steps = [];
    for await (const snapshot of graph.getStateHistory(config)) steps.push(snapshot);
    const coderStep = steps.find((s) => s.values.calls?.length === 3);
    expect(coderStep?.values.calls.map((c: { model: string }) => c.model).sort()).toEqual(["scripted-coder@m1", "scripted-coder@m2", "scripted-coder@m3"]);
  });

  it("voting falls back to the first model's code when no two agree; select asks the selector A/B", async () => {
    const third = `// count of active schools\nresult = tables.school.filter((s) => s.status === "Active").length;`;
    const script = { data: json(GOOD_DATA), "coder@m1": js(ANY_CODE), "coder@m2": js(ACTIVE_CODE), "coder@m3": js(third), reviser: sql(RIGHT_SQL) };
    const fallback = await run(tsSqlRefineSpec, provider(script), { coderModels: ["m1", "m2", "m3"] }, { sql: WRONG_SQL });
    expect(fallback.testCode).toMatchObject({ model: "m1", how: "fallback" });
    expect(fallback.sql).toBe(WRONG_SQL); // m1's test agrees with the wrong SQL: nothing to revise

    const models = provider({ ...script, selector: ["<answer>B</answer>", "<answer>A</answer>"] });
    const selected = await run(tsSqlRefineSpec, models, { coderModels: ["m1", "m2", "m3"], codeVote: "select" }, { sql: WRONG_SQL });
    expect(selected.testCode).toMatchObject({ model: "m2", how: "selected" });
    expect(seen(models, "selector")).toHaveLength(2);
    expect(seen(models, "selector")[0]).toContain(ANY_CODE);
    expect(seen(models, "selector")[0]).toContain(ACTIVE_CODE);
    expect(selected.sql).toBe(RIGHT_SQL);
  });

  it("a coder model whose code keeps failing is given up after maxCodeRefinements; the others still vote", async () => {
    const broken = [1, 2, 3].map((k) => js(`// broken, try ${k}\nresult = tables.nope.length;`));
    const models = provider({ data: json(GOOD_DATA), "coder@m1": broken, "coder@m2": js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) });
    const state = await run(tsSqlRefineSpec, models, { coderModels: ["m1", "m2"], maxCodeRefinements: 2 }, { sql: WRONG_SQL });
    expect(seen(models, "coder@m1")).toHaveLength(3);
    expect(seen(models, "coder@m1")[1]).toMatch(/the code fails: TypeError/);
    // The one model left standing is not an agreement of models: it is the fallback.
    expect(state.testCode).toMatchObject({ model: "m2", how: "fallback", agreeing: 1 });
    expect(state.sql).toBe(RIGHT_SQL);
  });

  it("a coder that writes its last code again is not asked again: the same code gives the same result (counted)", async () => {
    const models = provider({ data: json(GOOD_DATA), "coder@m1": js("// broken\nresult = tables.nope.length;"), "coder@m2": js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) });
    const state = await run(tsSqlRefineSpec, models, { coderModels: ["m1", "m2"], maxCodeRefinements: 5 }, { sql: WRONG_SQL });
    expect(seen(models, "coder@m1")).toHaveLength(2);
    expect(tsSqlOutcome(state)).toMatchObject({ coderRepeats: 1, tested: true });
    expect(state.testCode).toMatchObject({ model: "m2" });
  });

  it("no answer in the rows (the code and the SQL both find nothing): the data agent is asked again, not the coder (counted)", async () => {
    const ABOVE = "SELECT name FROM school WHERE status = 'Active' AND score > 600";
    const code = js("// active schools scoring above 600\nresult = school.filter((s) => s.status === 'Active' && s.score > 600).map((s) => ({ name: s.name }));");
    // The first rows hold no active school above 600 (Gamma has 580); the second do.
    const better = { tables: { ...GOOD_DATA.tables, school: GOOD_DATA.tables.school.map((r) => (r.name === "Gamma" ? { ...r, score: 700 } : r)) } };
    const models = provider({ data: [json(GOOD_DATA), json(better)], coder: code, reviser: sql(ABOVE) });
    const state = await run(tsSqlRefineSpec, models, {}, { sql: ABOVE, question: "Which active schools score above 600?" });
    const dataSaw = seen(models, "data");
    expect(dataSaw).toHaveLength(2);
    expect(dataSaw[1]).toMatch(/the question has no answer on these rows \(the test code's result is empty\)/);
    expect(dataSaw[1]).not.toContain(ABOVE);
    // The coder is not asked to loosen its filters: one turn per data round.
    expect(seen(models, "coder")).toHaveLength(2);
    expect(state.testCode?.expected.rows).toEqual([["Gamma"]]);
    expect(tsSqlOutcome(state)).toMatchObject({ tested: true, noAnswerDataTurns: 1, dataRounds: 2 });
    expect(summarizeTsSql([tsSqlOutcome(state)])).toContain("data agent asked again because the test code found no answer in the rows: 1/1 questions, 1 turns");
  });

  it("a dangling foreign key and a repeated key in the data agent's rows are repaired before loading, counted, and the rows kept", async () => {
    // Rows a schema-following model writes at random: school 3 names district 9 (none), two schools share id 2.
    const rows = { tables: { district: [{ id: 1, name: "D1" }], school: [...GOOD_DATA.tables.school.slice(0, 2), { id: 2, district_id: 9, name: "Gamma", status: "Active", score: 580 }] } };
    const models = provider({ data: json(rows), coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) });
    const state = await run(tsSqlRefineSpec, models, { maxDataRounds: 1 }, { sql: WRONG_SQL });
    // Gamma kept, under a fresh id and district 1: no row refused, no re-ask, and the test case finds it.
    expect(state.testData?.tables.school).toContainEqual({ id: 3, district_id: 1, name: "Gamma", status: "Active", score: 580 });
    expect(state.testData).toMatchObject({ violations: [], keyRepairs: { renumbered: 1, remapped: 1, dropped: 0 } });
    expect(state.testCode?.expected.rows).toEqual([["Gamma"]]);
    expect(state.sql).toBe(RIGHT_SQL);
    const outcome = tsSqlOutcome(state);
    expect(outcome).toMatchObject({ tested: true, keysRenumbered: 1, danglingKeysRemapped: 1, repeatedKeyRowsDropped: 0 });
    expect(summarizeTsSql([outcome])).toContain("test data with repaired keys: 1/1 questions (1 repeated keys renumbered, 1 dangling foreign keys set to a parent's key, 0 rows repeating a key left out)");
  });

  it("ablations: noTestCode predicts the result; noInspection takes the first code; noDataAgent samples real rows", async () => {
    const predicting = provider({ data: json(GOOD_DATA), coder: json({ columns: ["name"], rows: [["Gamma"]] }), reviser: sql(RIGHT_SQL) });
    const a = await run(tsSqlRefineSpec, predicting, { noTestCode: true }, { sql: WRONG_SQL });
    expect(a.testCode).toMatchObject({ expected: { rows: [["Gamma"]] } });
    expect(a.sql).toBe(RIGHT_SQL);
    expect(seen(predicting, "coder")[0]).toMatch(/What is the answer on exactly this data/);

    const uninspected = provider({ data: json(GOOD_DATA), coder: js(ACTIVE_CODE.replace(/\/\/.*\n/g, "")), reviser: sql(RIGHT_SQL) });
    const b = await run(tsSqlRefineSpec, uninspected, { noInspection: true }, { sql: WRONG_SQL });
    expect(seen(uninspected, "coder")).toHaveLength(1);
    expect(b.sql).toBe(RIGHT_SQL);

    const sampling = provider({ coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) });
    const c = await run(tsSqlRefineSpec, sampling, { noDataAgent: "sample" }, { sql: WRONG_SQL });
    expect(seen(sampling, "data")).toHaveLength(0);
    expect(c.testData).toMatchObject({ source: "sampled" });
    // Without the data agent, real rows reach the coder: the no-real-rows guarantee does not hold.
    expect(seen(sampling, "coder")[0]).toMatch(new RegExp(`${SENTINEL}|Real Two`));
  });

  it("noDataAgent's sample is the same rows for the same question and seed (a rerun is reproducible), others for another", async () => {
    const many = makeDb(dir, "many-schools.sqlite", `${SCHOOLS.split("INSERT")[0]}
      INSERT INTO district VALUES (1, 'North');
      WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 300)
      INSERT INTO school SELECT i, 1, 'School ' || i, CASE WHEN i % 2 THEN 'Active' ELSE 'Closed' END, i FROM n;`);
    const sampled = async (questionId: string, seed?: number) => {
      const models = provider({ coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) });
      if (seed !== undefined) models.describe = () => ({ model: "scripted", seed });
      const state = await run(tsSqlRefineSpec, models, { noDataAgent: "sample" }, { sql: WRONG_SQL, dbPath: many, questionId });
      return (state.testData.tables.school as { id: number }[]).map((r) => r.id);
    };
    const first = await sampled("q1");
    expect(first).toHaveLength(30); // 1/10 of 300 (Figure 4)
    // Not the first rows, and the same ones again for the same question (ORDER BY random() gave others each time).
    expect(first).not.toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
    expect(await sampled("q1")).toEqual(first);
    expect(await sampled("q2")).not.toEqual(first);
    // Another --seed (a repeat) draws another sample; the same seed the same one.
    const seeded = await sampled("q1", 2);
    expect(seeded).not.toEqual(first);
    expect(await sampled("q1", 2)).toEqual(seeded);

    // A WITHOUT ROWID table has no rowid to scramble: its first rows, and the attempt says so.
    const noRowid = makeDb(dir, "no-rowid.sqlite", "CREATE TABLE school (id INTEGER PRIMARY KEY, name TEXT, status TEXT, score REAL) WITHOUT ROWID; INSERT INTO school VALUES (1, 'A', 'Active', 1), (2, 'B', 'Active', 2);");
    const state = await run(tsSqlRefineSpec, provider({ coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) }), { noDataAgent: "sample" }, { sql: WRONG_SQL, dbPath: noRowid, questionId: "q1" });
    expect(state.testData.tables.school).toHaveLength(1); // 1/10 of 2 rows, at least one
    expect(state.attempts.find((a: { node: string }) => a.node === "sample")).toMatchObject({ note: "first rows, not a sample, of school (no rowid)" });
    // Recorded in the outcome and counted in report.md.
    expect(tsSqlOutcome(state)).toMatchObject({ unsampledTables: 1 });
    expect(summarizeTsSql([tsSqlOutcome(state)]).join("\n")).toMatch(/unsampledTables/);
  });

  it("an untested run says so: the outcome records the test case, or why testing was skipped; the summary counts them", async () => {
    // Tested: data, code, one failing test then a passing one after a revision.
    const tested = await run(tsSqlRefineSpec, provider({ data: json(GOOD_DATA), coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) }), {}, { sql: WRONG_SQL });
    const a = outcomeOf(tsSqlRefineSpec, tested);
    expect(a).toMatchObject({ tested: true, skipped: null, testTables: 2, testRows: 4, testCodeBuilt: true, testsPassed: 1, testsFailed: 1, initialPasses: false, finalPasses: true, revisions: 1, comparison: "multiset" }); // LIMIT 1: one row, no order to compare

    // A schema quirk: a foreign key to a column that does not exist, so no row can be loaded.
    const quirk = makeDb(dir, "quirk.sqlite", "CREATE TABLE parent (id INTEGER PRIMARY KEY); CREATE TABLE child (id INTEGER PRIMARY KEY, pid INTEGER REFERENCES parent(nope), name TEXT);");
    const quirkData = json({ tables: { parent: [{ id: 1 }], child: [{ id: 1, pid: 1, name: "x" }] } });
    const schemaSkip = await run(tsSqlRefineSpec, provider({ data: quirkData, coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) }), {}, { sql: "SELECT name FROM child", dbPath: quirk });
    const b = tsSqlOutcome(schemaSkip);
    expect(b).toMatchObject({ tested: false, skipped: "schema", testCodeBuilt: false, testsPassed: 0, testsFailed: 0 });

    // Every row refused (invalid data) until the data turns run out.
    const orphans = { tables: { school: [{ id: 1, district_id: 9, name: "Alpha", status: "Active", score: 1 }] } };
    const invalid = await run(tsSqlRefineSpec, provider({ data: json(orphans), coder: js(ACTIVE_CODE), reviser: sql(RIGHT_SQL) }), { maxDataRounds: 2 }, { sql: RIGHT_SQL });
    const c = tsSqlOutcome(invalid);
    expect(c).toMatchObject({ tested: false, skipped: "invalid data", dataRounds: 2, testRows: 0, dataViolations: 1 });

    const lines = summarizeTsSql([a, b, c]);
    expect(lines[0]).toBe("test case built for 1/3; skipped: 1 schema, 1 invalid data");
    expect(lines[1]).toMatch(/^tested SQL passing its test case: 0\/1 at first, 1\/1 after revision/);
    // The generic sums follow.
    expect(lines.some((l) => l.startsWith("revisions: mean"))).toBe(true);
  });

  it("non-duality: a candidate and its variant that disagree on the real database must disagree on the test data, whichever is right", async () => {
    // Two real schools share a status: with and without DISTINCT, the answers differ on the real database.
    const dupDb = makeDb(dir, "dups.sqlite", `${SCHOOLS.replace("(2, 2, 'Real Two', 'Closed', 300);", "(2, 2, 'Real Two', 'Closed', 300), (3, 1, 'Real Three', 'Active', 100);")}`);
    const distinctStatuses = { tables: { district: [{ id: 1, name: "D1" }], school: [{ id: 1, district_id: 1, name: "A", status: "Active", score: 1 }, { id: 2, district_id: 1, name: "B", status: "Closed", score: 2 }] } };
    const repeated = { tables: { district: [{ id: 1, name: "D1" }], school: [...distinctStatuses.tables.school, { id: 3, district_id: 1, name: "C", status: "Active", score: 3 }] } };
    const code = "// the status of every school, one row each\nresult = school.map((s) => ({ status: s.status }));";
    for (const candidate of ["SELECT status FROM school", "SELECT DISTINCT status FROM school"]) {
      const models = provider({ data: [json(distinctStatuses), json(repeated)], coder: js(code), reviser: sql("SELECT status FROM school") });
      // The real database is asked about the variants once per candidate, not once per data round.
      const realRuns: string[] = [];
      const counting = Object.assign(Object.create(executor), { run: (db: string, text: string, o?: object) => (realRuns.push(text), executor.run(db, text, o)) });
      const graph = tsSqlRefineSpec.build({ models, executor: counting }, { checkpointer: new MemorySaver() });
      const state = await graph.invoke({ question: "What is the status of each school?", dbPath: dupDb, dbId: "schools", sql: candidate }, { configurable: { thread_id: `dup-${candidate}` }, recursionLimit: 100 });
      // Candidate and variant once (not again in the second data round), and the final answer by execute.
      expect(realRuns.filter((t) => /^SELECT\s+(DISTINCT\s+)?status FROM school$/.test(t))).toHaveLength(3);
      const dataSaw = seen(models, "data");
      expect(dataSaw).toHaveLength(2);
      expect(dataSaw[1]).toMatch(/the answer repeats rows .* but in the test data it does not/);
      expect(dataSaw[1]).not.toContain(candidate);
      expect(state.testData).toMatchObject({ gaps: [] });
      // On data that tells them apart, the multiset test separates the readings.
      expect(state.testRun).toMatchObject({ sql: "SELECT status FROM school", match: true });
    }
  });
});
