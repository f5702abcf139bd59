/**
 * Every table the papers print has a recipe whose rows sit beside the paper's: the figures copied from the paper, the
 * metrics it reports beyond EX (test-suite accuracy, VES) computed where the data is given and "not computed" with
 * what is missing where not, and a row whose set-up differs from the paper row's saying so in the row itself.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import type { OpenAIServer } from "./support/openai-server.ts";
import { agentsFixture, runCli } from "./support/cli.ts";
import { BUILT_IN_RECIPES } from "../runner/experiment/built-in-recipes.ts";
import { runMetrics } from "../runner/experiment/paper-metrics.ts";

let dir: string;
let benchDir: string;
let server: OpenAIServer;
const sqlmend = (...args: string[]) => runCli(args, dir, { OPENAI_API_KEY: "k", SQLMEND_HOME: path.join(dir, "home") });
type Row = { run: string; ex: number; questions: number; failed: number; notRun: string | null; tokensPerQuestion: number; metrics: Record<string, number | string> | null; model: string | null; paper: { figures: Record<string, number>; differs?: string } | null };
const rowsOf = (out: string): Record<string, Row> => Object.fromEntries((JSON.parse(fs.readFileSync(path.join(dir, out, "table.json"), "utf8")).rows as Row[]).map((r) => [r.run, r]));

beforeAll(async () => {
  dir = makeTempDir();
  ({ benchDir, server } = await agentsFixture(dir));
});
afterAll(async () => {
  await server?.close();
  removeTempDir(dir);
});

const NEW_RECIPES = ["magic-table5", "r3-table1", "r3-table2", "memo-table1", "memo-table6", "memo-table7", "ts-sql-table6"];

describe("recipes for every paper table", () => {
  it("each new recipe is listed, and --dry-run plans every row with the paper's figures, its metrics and how it differs", async () => {
    const list = await sqlmend("experiment", "--list");
    for (const name of NEW_RECIPES) expect(list.out).toMatch(new RegExp(`^${name}\\n  reproduces: \\S`, "m"));
    const plan = async (name: string, ...more: string[]) => {
      const dry = await sqlmend("experiment", name, "--bench", benchDir, "--out", `dry-${name}`, "--limit", "2", "--dry-run", ...more);
      expect(dry.code, `${name}: ${dry.err}`).toBe(0);
      expect(dry.out).toContain("Beside the paper's (its figures; the metrics each row reports beyond EX; where the set-up differs):");
      return dry.out;
    };
    expect(await plan("magic-table5")).toMatch(/^\s+zero-shot\.magic\s+Zero-shot GPT-4 \+ MAGIC G \(Ours\): EX 48\.19; differs: the guideline learnt from sqlmend baseline's train-split mistakes/m);
    const t6 = await plan("ts-sql-table6");
    expect(t6).toMatch(/^\s+ts-sql\s+TS-SQL: Tokens per SQL 2369; differs: one coder \(the coder role's model\), no selector/m);
    expect(t6).toMatch(/^\s+e-sql\s+E-SQL: Tokens per SQL 3237; Growth Rate % 36\.6$/m);
    expect(t6).toMatch(/^\s+chess\s+CHESS\s+not run: CHESS is not in sqlmend/m);
    const r3 = await plan("r3-table1");
    expect(r3).toMatch(/^\s+r3\s+R³ 5-shot: GPT-3\.5 Spider-Dev 81\.4; GPT-3\.5 Spider-Test 81\.1; GPT-3\.5 BIRD-Dev 52\.15; GPT-4 Spider-Dev 88\.1; GPT-4 Spider-Test 89\.9; GPT-4 BIRD-Dev 61\.8; metrics: TS % \(not computed: needs --ts-dir DIR/m);
    expect(r3).toMatch(/^\s+mac-sql\.gpt-4\s+MAC \(Wang et al\., 2023\): GPT-4 Spider-Dev 86\.8; GPT-4 Spider-Test 82\.8; GPT-4 BIRD-Dev 59\.39/m);
    fs.mkdirSync(path.join(dir, "ts-empty"), { recursive: true });
    expect(await plan("r3-table2", "--ts-dir", "ts-empty")).toMatch(/^\s+r3\s+R³ 0-shot: Llama-3-8B Spider-Dev 72\.8; Llama-3-8B Spider-Test 72\.6; Llama-3-70B Spider-Dev 79\.7; Llama-3-70B Spider-Test 80\.3; metrics: TS %$/m);
    expect(await plan("memo-table1")).toMatch(/^\s+memo-sql\.no-icl\s+Memo-SQL \(Ours\): BIRD dev EX 67\.6; BIRD dev-new EX 68\.5$/m);
    expect(await plan("memo-table6")).toMatch(/^\s+baseline\s+Baseline: DeepSeek-Coder-V2-Lite EX 32\.5; Qwen2\.5-Coder-32B EX 52\.8; Qwen3-Coder-30B-A3B EX 62\.1$/m);
    const t7 = await plan("memo-table7");
    expect(t7).toMatch(/^\s+memo-sql\s+memo-sql\s+not run: --set bird-memory=VALUE/m);
    expect(t7).toMatch(/^\s+alpha-sql\s+Alpha-SQL \(Li et al\., 2025b\): EX 87\.8$/m);
    // MAGIC Table 4's VES is computed from the guideline run's answers after the cycle.
    expect(await plan("magic-guideline")).toMatch(/^\s+guideline\.m2\s+MAGIC max_i=2, w\/ manager: BIRD EX 78\.94; BIRD VES 80\.22; .*; metrics: VES; differs: the cycle corrects sqlmend's baseline SQL/m);
    // ts-sql-table4's three-coder rows take the user's coders by --set.
    const t4 = await plan("ts-sql-table4", "--set", "coder-models=agent/coder,agent/coder-b,agent/coder-c");
    expect(t4).toMatch(/^\s+ts-sql\.coders-select\s+ts-sql\s+dev: 2 questions, 0 done/m);
  }, 120_000);

  it("r3-table2 on minibench: the paper's figures beside ours, TS 'not computed' without --ts-dir and computed with it, another system's predictions scored as given", async () => {
    const devItems = JSON.parse(fs.readFileSync(path.join(benchDir, "dev.json"), "utf8")) as { question_id: number; SQL: string; db_id: string }[];
    fs.writeFileSync(path.join(dir, "li.json"), JSON.stringify(Object.fromEntries(devItems.map((q) => [q.question_id, `${q.SQL}\t----- bird -----\t${q.db_id}`]))));
    const run = await sqlmend("experiment", "r3-table2", "--bench", benchDir, "--out", "r3a", "--limit", "2", "--concurrency", "2", "--set", "li-2023=li.json");
    expect(run.code, run.err.slice(-3000)).toBe(0);
    const rows = rowsOf("r3a");
    for (const r of ["li-2023", "cot", "r3"]) expect([r, rows[r]!.questions, rows[r]!.failed]).toEqual([r, 2, 0]);
    expect(rows.r3!.paper!.figures["Llama-3-8B Spider-Dev"]).toBe(72.8);
    expect(rows.r3!.metrics).toEqual({ ts: "not computed: needs --ts-dir DIR (Spider's test-suite databases)" });
    // Which model ran the row (a table over several models says it).
    expect(rows.r3!.model).toMatch(/^agent\/unrouted; (\w+: agent\/\w+; )*writer: agent\/writer/);
    expect(rows.r3!.model).not.toContain("coder");
    // A row that called no model (another system's predictions) names none.
    expect(rows["li-2023"]!.model).toBeNull();
    expect(run.out).toMatch(/^\| r3 \| R³ 0-shot \| EX \d+\.\d\d \(\d\/2\); TS % not computed: needs --ts-dir DIR \(Spider's test-suite databases\); with agent\/unrouted; .*\| Llama-3-8B Spider-Dev 72\.8; Llama-3-8B Spider-Test 72\.6; Llama-3-70B Spider-Dev 79\.7; Llama-3-70B Spider-Test 80\.3 \| R³ Table 2/m);

    // The test-suite variants of each database (here: a copy of it): TS is computed, for the given row too.
    const ts = path.join(dir, "ts");
    for (const db of new Set(devItems.map((q) => q.db_id))) {
      fs.mkdirSync(path.join(ts, db), { recursive: true });
      fs.copyFileSync(path.join(benchDir, "dev_databases", db, `${db}.sqlite`), path.join(ts, db, `${db}.sqlite`));
    }
    const again = await sqlmend("experiment", "r3-table2", "--bench", benchDir, "--out", "r3b", "--limit", "2", "--concurrency", "2", "--set", "li-2023=li.json", "--ts-dir", "ts");
    expect(again.code, again.err.slice(-3000)).toBe(0);
    const withTs = rowsOf("r3b");
    expect(withTs["li-2023"]!.metrics).toEqual({ ts: 100 });
    for (const r of ["cot", "r3"]) expect([r, withTs[r]!.metrics!.ts]).toEqual([r, withTs[r]!.ex]);
  }, 300_000);

  it("ts-sql-table6 on minibench: tokens per question beside the paper's tokens per SQL, the one-coder difference in the row, CHESS and E-SQL not run with the reason", async () => {
    const run = await sqlmend("experiment", "ts-sql-table6", "--bench", benchDir, "--out", "t6", "--limit", "2", "--concurrency", "2");
    expect(run.code, run.err.slice(-3000)).toBe(0);
    const rows = rowsOf("t6");
    expect([rows["ts-sql"]!.questions, rows["ts-sql"]!.failed]).toEqual([2, 0]);
    expect(rows["ts-sql"]!.tokensPerQuestion).toBeGreaterThan(0);
    expect(rows["ts-sql"]!.paper!.differs).toMatch(/^one coder \(the coder role's model\), no selector; the paper's three coders/);
    expect(rows.chess!.notRun).toMatch(/^CHESS is not in sqlmend/);
    // The recipe's table: ours beside the paper's figure, and the difference, in the row.
    expect(run.out).toContain("## Token cost per SQL (TS-SQL Table 6)");
    expect(run.out).toContain(`| ts-sql | ${Math.round(rows["ts-sql"]!.tokensPerQuestion)} | 2369 |`);
    expect(run.out).toMatch(/^\| ts-sql \| \d+ \| 2369 \| .* \| one coder \(the coder role's model\), no selector; .*fine-tuned selector.* \|$/m);
    expect(run.out).toMatch(/^\| e-sql \|\s+\| 3237 \|\s+\| not run: E-SQL is not in sqlmend .* \|\s+\|$/m);
    // Ours beside the paper's: the difference in the row's own column.
    expect(run.out).toMatch(/^\| ts-sql \| TS-SQL \| EX .*\| Tokens per SQL 2369 \| TS-SQL Table 6 .*\| one coder \(the coder role's model\), no selector; /m);
  }, 300_000);

  it("MAGIC Table 4's VES: scored on the guideline run's answers after the cycle (predict_train.json); a run that wrote none says so", async () => {
    const spec = BUILT_IN_RECIPES["magic-guideline"]!.runs["guideline.m2"]!;
    expect(spec.metrics).toEqual(["ves"]);
    const train = JSON.parse(fs.readFileSync(path.join(benchDir, "train.json"), "utf8")) as { question_id: number; SQL: string; db_id: string }[];
    const run = path.join(dir, "g-ves");
    fs.mkdirSync(run, { recursive: true });
    fs.writeFileSync(path.join(run, "predict_train.json"), JSON.stringify(Object.fromEntries(train.slice(0, 3).map((q) => [q.question_id, `${q.SQL}\t----- bird -----\t${q.db_id}`]))));
    const at = { benchDir, split: "train", tsDir: undefined, cwd: dir };
    const ves = (await runMetrics(spec, [run], at)).ves;
    expect(typeof ves).toBe("number");
    expect(ves as number).toBeGreaterThan(0);
    expect(await runMetrics(spec, [path.join(dir, "nothing")], at)).toEqual({ ves: "not computed: nothing/predict_train.json was not written" });
  }, 60_000);

  it("the recipes' rows run the paper row's set-up: memo-ablation's ablations subtract from the no-ICL full row; ts-sql rows with one coder say so", () => {
    const memo = BUILT_IN_RECIPES["memo-ablation"]!.runs;
    for (const run of ["full", "no-linking", "random-decomposition", "no-react", "one-style", "no-refine"]) expect([run, memo[run]!.options["no-icl"]]).toEqual([run, true]);
    expect([memo.full!.paper!.figures.EX, memo.icl!.options["no-icl"], memo.icl!.paper!.figures.EX]).toEqual([68.5, undefined, 67.1]);
    expect(BUILT_IN_RECIPES["memo-correction"]!.runs.none!.options["no-icl"]).toBe(true);
    const t4 = BUILT_IN_RECIPES["ts-sql-table4"]!.runs;
    for (const run of ["ts-sql", "no-dg", "no-ci", "no-cg", "no-dg.sample"]) expect(t4[run]!.paper!.differs, run).toMatch(/^one coder/);
    expect(t4["no-dg"]!.options["no-data-agent"]).toBe("schema");
    expect(t4["ts-sql.coders-select"]).toMatchObject({ options: { "coder-models": "{set:coder-models}", "code-vote": "select" }, paper: { figures: { EX: 70.93 }, differs: expect.stringMatching(/prompted; the paper's is fine-tuned/) } });
    for (const run of Object.keys(BUILT_IN_RECIPES["ts-sql-table5"]!.runs).filter((r) => r.endsWith(".ts-sql"))) expect(BUILT_IN_RECIPES["ts-sql-table5"]!.runs[run]!.paper!.differs, run).toMatch(/^one coder/);
    for (const run of Object.values(BUILT_IN_RECIPES["r3-table3"]!.runs)) expect(run.metrics).toEqual(["ts"]);
  });
});
