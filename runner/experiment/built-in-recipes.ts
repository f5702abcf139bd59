import type { Paper, Recipe, RecipeRun } from "./recipe.ts";

/**
 * Built-in recipes that reproduce a paper table each, with the paper's reported figures beside every row (its model
 * names as it writes them). A row whose method sqlmend lacks is a run with `needs` (never run, printed with the
 * reason); one that needs a file only the user has (a human-written guideline, another system's predictions) reads
 * it from `--set NAME=FILE` and is listed with what it needs until given.
 */

const MAGIC_T1 = (scenario: string) => `MAGIC Table 1, BIRD dev, "${scenario}" scenario (T column as EX)`;
const MAGIC_MODEL = "GPT-4 (DIN-SQL's initial SQL)";
const SCENARIO_NAMES = { incorrect: "Correcting incorrect SQLs", errors: "SQLs with Exec error", all: "All SQLs" } as const;
type Scenario = keyof typeof SCENARIO_NAMES;
const SCENARIOS: Scenario[] = ["incorrect", "errors", "all"];
// MAGIC's rows correct DIN-SQL's SQL, and its guideline is learnt from DIN-SQL's mistakes on the train split.
/** What a row says of its initial SQL while the recipe's `initial` run makes it (`--set initial=FILE` rewrites it). */
export const BASELINE_INITIAL = "sqlmend's baseline (run initial), not DIN-SQL's";
const NOT_DIN_SQL = `initial SQL: ${BASELINE_INITIAL}`;
const BASELINE_GUIDELINE = `${NOT_DIN_SQL}; the guideline learnt from the baseline's train-split mistakes, not DIN-SQL's`;

// MAGIC Table 1's T figures by row and scenario (incorrect, errors, all).
const MAGIC_TABLE1: { key: string; row: string; ex: [number, number, number]; run?: (s: Scenario) => Partial<RecipeRun> }[] = [
  { key: "self-debugging", row: "Self-Debugging (Chen et al., 2023)", ex: [57.24, 56.78, 56.58], run: () => ({ graph: "self-debugging" }) },
  { key: "self-consistency", row: "Self-Consistency (Wang et al., 2022)", ex: [58.08, 56.58, 57.17], run: () => ({ graph: "self-consistency" }) },
  { key: "multiple-prompt", row: "Multiple-Prompt (Lee et al., 2024)", ex: [57.86, 56.65, 57.3], run: () => ({ graph: "multiple-prompt" }) },
  { key: "human-wang", row: "Human Expert G (Wang et al., 2024a)", ex: [56.6, 56.58, 46.14], run: () => ({ graph: "magic", options: { guideline: "{set:guideline-wang}" } }) },
  { key: "human-pourreza", row: "Human Expert G (Pourreza et al., 2023)", ex: [57.76, 56.98, 55.8], run: () => ({ graph: "magic", options: { guideline: "{set:guideline-pourreza}" } }) },
  { key: "magic", row: "MAGIC G (ours)", ex: [59.13, 57.32, 58.55], run: () => ({ graph: "magic", options: { guideline: "{run:guideline}/guideline.md" } }) },
];

// Table 1's Simple / Moderate / Challenging columns by row and scenario (incorrect, errors, all); T is in MAGIC_TABLE1.
const MAGIC_TABLE1_SMC: Record<string, [number, number, number][]> = {
  initial: [[63.14, 49.03, 38.19]],
  "self-debugging": [[63.57, 50.11, 39.67], [63.35, 49.03, 39.58], [63.03, 49.25, 38.89]],
  "self-consistency": [[64.56, 50.79, 40.09], [63.24, 49.03, 38.19], [64.0, 49.68, 37.5]],
  "multiple-prompt": [[64.22, 50.75, 40.02], [63.35, 49.03, 38.19], [63.68, 50.11, 39.58]],
  "human-wang": [[63.18, 49.19, 38.3], [63.2, 49.03, 38.19], [47.8, 46.22, 35.3]],
  "human-pourreza": [[64.32, 50.32, 39.58], [63.58, 49.03, 38.89], [62.49, 48.17, 37.5]],
  magic: [[65.84, 51.61, 40.28], [63.69, 50.15, 39.59], [65.75, 49.46, 41.67]],
};
/** A Table 1 row's figures for one scenario: EX (the T column) and its difficulty columns. */
const magicT1Figures = (key: string, scenario: number, ex: number) => {
  const [simple, moderate, challenging] = MAGIC_TABLE1_SMC[key]![scenario] ?? MAGIC_TABLE1_SMC[key]![0]!;
  return { EX: ex, Simple: simple, Moderate: moderate, Challenging: challenging };
};

const paper = (source: string, model: string, row: string, figures: Record<string, number>, note?: string, differs?: string): Paper => ({ source, model, row, figures, ...(note ? { note } : {}), ...(differs ? { differs } : {}) });
const ev = (graph: string, options: RecipeRun["options"] = {}, more: Partial<RecipeRun> = {}): RecipeRun => ({ kind: "eval", graph, options, ...more });
/** Another system's predictions (`--set NAME=FILE`), scored as they are by the as-given graph: its row beside ours (tested against nothing). */
const given = (set: string, p: Paper): RecipeRun => ({ kind: "eval", graph: "as-given", options: {}, initial: `{set:${set}}`, correct: "all", reference: false, paper: p });

const magicTable1: Recipe = {
  name: "magic-table1",
  reproduces: "MAGIC Table 1 (BIRD dev, GPT-4 on DIN-SQL's SQL): correction scenarios × methods; baseline's SQL as the initial",
  description: "MAGIC Table 1: each self-correction method under --correct incorrect, errors and all on the same initial SQL (ours: baseline; the paper's: DIN-SQL). Human-written guidelines come from --set guideline-wang=FILE and --set guideline-pourreza=FILE.",
  runs: {
    initial: ev("baseline", {}, { paper: paper(MAGIC_T1("every"), MAGIC_MODEL, "W/o self-correction", magicT1Figures("initial", 0, 56.52), undefined, "sqlmend's baseline, not DIN-SQL") }),
    guideline: { kind: "magic-guideline", options: {} },
    ...Object.fromEntries(
      MAGIC_TABLE1.flatMap((m) =>
        SCENARIOS.map((s, i) => {
          const extra = m.run!(s);
          const note = m.key.startsWith("human") ? "a human-written guideline file" : undefined;
          const differs = m.key === "magic" ? BASELINE_GUIDELINE : NOT_DIN_SQL;
          const run: RecipeRun = { kind: "eval", ...(extra.graph ? { graph: extra.graph } : {}), options: extra.options ?? {}, initial: "initial", correct: s, ...(extra.needs ? { needs: extra.needs } : {}), paper: paper(MAGIC_T1(SCENARIO_NAMES[s]), MAGIC_MODEL, m.row, magicT1Figures(m.key, i, m.ex[i]!), note, differs) };
          return [`${m.key}.${s}`, run];
        }),
      ),
    ),
  },
};

const T2 = "MAGIC Table 2, Spider dev (incorrect SQL corrected)";
const magicTable2: Recipe = {
  name: "magic-table2",
  reproduces: "MAGIC Table 2 (Spider dev, GPT-4 on DIN-SQL's SQL, incorrect SQL corrected): self-consistency, multiple-prompt, two human-written guidelines and MAGIC's guideline from Spider's train split",
  description: "MAGIC Table 2: each correction under --correct incorrect on the same initial SQL (ours: baseline; the paper's: DIN-SQL), MAGIC's guideline learnt on the train split of --bench (Spider's layout). Human-written guidelines come from --set guideline-wang=FILE and --set guideline-pourreza=FILE.",
  runs: {
    initial: ev("baseline", {}, { paper: paper(T2, MAGIC_MODEL, "w/o self-correction", { EX: 78.62 }, undefined, "sqlmend's baseline, not DIN-SQL") }),
    guideline: { kind: "magic-guideline", options: {} },
    "self-consistency": ev("self-consistency", {}, { initial: "initial", correct: "incorrect", paper: paper(T2, MAGIC_MODEL, "Self-Consistency (Wang et al., 2022)", { EX: 81.64 }, undefined, NOT_DIN_SQL) }),
    "multiple-prompt": ev("multiple-prompt", {}, { initial: "initial", correct: "incorrect", paper: paper(T2, MAGIC_MODEL, "Multiple-Prompt (Lee et al., 2024)", { EX: 80.22 }, undefined, NOT_DIN_SQL) }),
    "human-wang": ev("magic", { guideline: "{set:guideline-wang}" }, { initial: "initial", correct: "incorrect", paper: paper(T2, MAGIC_MODEL, "Human's G (Wang et al., 2024a)", { EX: 81.15 }, "a human-written guideline file", NOT_DIN_SQL) }),
    "human-pourreza": ev("magic", { guideline: "{set:guideline-pourreza}" }, { initial: "initial", correct: "incorrect", paper: paper(T2, MAGIC_MODEL, "Human's G (Pourreza et al., 2023)", { EX: 80.35 }, "a human-written guideline file", NOT_DIN_SQL) }),
    magic: ev("magic", { guideline: "{run:guideline}/guideline.md" }, { initial: "initial", correct: "incorrect", paper: paper(T2, MAGIC_MODEL, "MAGIC's G (ours)", { EX: 85.66 }, undefined, BASELINE_GUIDELINE) }),
  },
};

const T3 = "MAGIC Table 3, BIRD dev (incorrect SQL corrected)";
// Table 4's cycle corrects the initial SQL of the train split: DIN-SQL's in the paper.
const CYCLE_ON_BASELINE = "the cycle corrects sqlmend's baseline SQL on the train split, not DIN-SQL's";
const T4 = "MAGIC Table 4 (train set; BIRD and Spider columns) and Figure 3 (corrected within k iterations, plotted only)";
const magicGuideline: Recipe = {
  name: "magic-guideline",
  reproduces: "MAGIC Table 3 (EX after correction with the guideline after 1, 5, 10 and all batches), Table 4 (max_i 2 and 5, with and without the manager: EX, AVG_i) and Figure 3 (corrected within k)",
  description: "MAGIC Tables 3 and 4, Figure 3. Table 3: magic under --correct incorrect with the guideline after 1, 5 and 10 batches of 10 and the final one (0 batches is the initial run). Table 4 / Figure 3: guideline runs on the train split with --max-iter 2 and 5, with and without the manager (EX after the cycle, AVG_i, corrected within k iterations).",
  runs: {
    initial: ev("baseline", {}, { paper: paper(T3, MAGIC_MODEL, "0 batches", { EX: 56.52 }, undefined, "sqlmend's baseline, not DIN-SQL") }),
    guideline: { kind: "magic-guideline", options: { batch: 10, "max-iter": 5 }, metrics: ["ves"], paper: paper(T4, MAGIC_MODEL, "MAGIC max_i=5, w/ manager", { "BIRD EX": 81.81, "BIRD VES": 84.19, "BIRD AVG_i": 2.41, "Spider EX": 91.78, "Spider AVG_i": 2.15 }, undefined, CYCLE_ON_BASELINE) },
    ...Object.fromEntries(
      ([["batch-001", "1 batch", 57.4], ["batch-005", "5 batches", 58.8], ["batch-010", "10 batches", 59.13]] as const).map(([file, row, ex]) => [
        `magic.${file}`,
        ev("magic", { guideline: `{run:guideline}/guideline-${file}.md` }, { initial: "initial", correct: "incorrect", paper: paper(T3, MAGIC_MODEL, row, { EX: ex }, "a batch file exists once the guideline run merged that many batches (10 questions' feedback each)", BASELINE_GUIDELINE) }),
      ]),
    ),
    "magic.all": ev("magic", { guideline: "{run:guideline}/guideline.md" }, { initial: "initial", correct: "incorrect", paper: paper(T3, MAGIC_MODEL, "39 (All) batches", { EX: 59.13 }, undefined, BASELINE_GUIDELINE) }),
    "guideline.m2": { kind: "magic-guideline", options: { "max-iter": 2 }, metrics: ["ves"], paper: paper(T4, MAGIC_MODEL, "MAGIC max_i=2, w/ manager", { "BIRD EX": 78.94, "BIRD VES": 80.22, "BIRD AVG_i": 1.12, "Spider EX": 86.52, "Spider AVG_i": 1.05 }, undefined, CYCLE_ON_BASELINE) },
    "guideline.m2-nm": { kind: "magic-guideline", options: { "max-iter": 2, "no-manager": true }, metrics: ["ves"], paper: paper(T4, MAGIC_MODEL, "MAGIC max_i=2, w/o manager", { "BIRD EX": 73.01, "BIRD VES": 68.29, "BIRD AVG_i": 1.17, "Spider EX": 81.4, "Spider AVG_i": 1.11 }, undefined, CYCLE_ON_BASELINE) },
    "guideline.m5-nm": { kind: "magic-guideline", options: { "max-iter": 5, "no-manager": true }, metrics: ["ves"], paper: paper(T4, MAGIC_MODEL, "MAGIC max_i=5, w/o manager", { "BIRD EX": 78.6, "BIRD VES": 79.58, "BIRD AVG_i": 2.87, "Spider EX": 83.28, "Spider AVG_i": 2.22 }, undefined, CYCLE_ON_BASELINE) },
  },
};


const T5 = "MAGIC Table 5, BIRD dev (incorrect SQL corrected)";
const GUIDELINE = { guideline: "{run:guideline}/guideline.md" };
const BASELINE_GUIDE_ONLY = "the guideline learnt from sqlmend baseline's train-split mistakes, not DIN-SQL's";
const FEW_SHOT = 3;
const magicTable5: Recipe = {
  name: "magic-table5",
  reproduces: "MAGIC Table 5 (BIRD dev, GPT-4): MAGIC's guideline on zero-shot, few-shot and DIN-SQL initial SQL (DIN-SQL's predictions via --set din-sql=FILE)",
  description: "MAGIC Table 5: one guideline (learnt on the train split) corrects three systems' SQL under --correct incorrect, as Table 1's 59.13 does: zero-shot baseline, few-shot baseline, and DIN-SQL's predictions (--set din-sql=FILE).",
  runs: {
    guideline: { kind: "magic-guideline", options: {} },
    "zero-shot": ev("baseline", { "few-shot": 0 }, { paper: paper(T5, "GPT-4", "Zero-shot GPT-4 (OpenAI, 2023b)", { EX: 40.18 }) }),
    "zero-shot.magic": ev("magic", GUIDELINE, { initial: "zero-shot", correct: "incorrect", paper: paper(T5, "GPT-4", "Zero-shot GPT-4 + MAGIC G (Ours)", { EX: 48.19 }, undefined, BASELINE_GUIDE_ONLY) }),
    "few-shot": ev("baseline", { "few-shot": FEW_SHOT }, { paper: paper(T5, "GPT-4", "Few-shot GPT-4 (Li et al., 2023)", { EX: 45.66 }, "§6's text says 45.56, the table 45.66", `${FEW_SHOT} examples retrieved from the train split; the paper uses BIRD's (Li et al., 2023) few-shot prompt and does not give its examples`) }),
    "few-shot.magic": ev("magic", GUIDELINE, { initial: "few-shot", correct: "incorrect", paper: paper(T5, "GPT-4", "Few-shot GPT-4 (Li et al., 2023) + MAGIC G (Ours)", { EX: 50.38 }, undefined, `${FEW_SHOT} examples retrieved for the initial SQL; ${BASELINE_GUIDE_ONLY}`) }),
    "din-sql": given("din-sql", paper(T5, "GPT-4", "DIN-SQL (Pourreza et al., 2023)", { EX: 56.52 }, "DIN-SQL's predictions file (DIN-SQL is not in sqlmend)")),
    "din-sql.magic": ev("magic", GUIDELINE, { initial: "{set:din-sql}", correct: "incorrect", paper: paper(T5, "GPT-4", "DIN-SQL (Pourreza et al., 2023) + MAGIC G (Ours)", { EX: 59.13 }, "DIN-SQL's predictions file", BASELINE_GUIDE_ONLY) }),
  },
};

const R3_SOURCE = "R³ Table 3 (Spider dev and BIRD dev, 5-shot)";
const R3_MODELS = "GPT-3.5-Turbo and GPT-4 (pass --model for one of them)";
const r3Fig = (a: number, b: number, c: number, d: number) => ({ "GPT-3.5-Turbo Spider": a, "GPT-3.5-Turbo BIRD": b, "GPT-4 Spider": c, "GPT-4 BIRD": d });
// R³ reports Spider by test-suite accuracy (§3, test-suite-sql-eval) and BIRD by EX: every R³ row asks for TS too.
const R3_TS = { metrics: ["ts" as const] };
const R3_NOTE = "Spider columns are test-suite accuracy (ours: the TS cell, with --ts-dir), BIRD columns EX";
const r3Table3: Recipe = {
  name: "r3-table3",
  reproduces: "R³ Table 3 (Spider/BIRD dev, 5-shot, GPT-3.5-Turbo and GPT-4): CoT, PoT, 1R-Lp + CoT, 1R-Lp + PoT, R³ (3R-Lp + PoT)",
  description: "R³ Table 3: the writer alone with CoT or PoT (no reviewers, no debug loop), then Algorithm 1 with 1 and 3 reviewers; every row 5-shot.",
  runs: {
    cot: ev("r3", { "k-shot": 5, reasoning: "cot", reviewers: 0, "max-debug-turns": 0 }, { ...R3_TS, paper: paper(R3_SOURCE, R3_MODELS, "CoT", r3Fig(78.2, 37.22, 79.7, 53.3), R3_NOTE) }),
    pot: ev("r3", { "k-shot": 5, reasoning: "pot", reviewers: 0, "max-debug-turns": 0 }, { ...R3_TS, paper: paper(R3_SOURCE, R3_MODELS, "PoT", r3Fig(78.5, 36.96, 80.0, 54.61), R3_NOTE) }),
    "1r-cot": ev("r3", { "k-shot": 5, reasoning: "cot", reviewers: 1, "max-debug-turns": 3, "max-review-turns": 5 }, { ...R3_TS, paper: paper(R3_SOURCE, R3_MODELS, "1R-Lp + CoT", r3Fig(78.3, 44.13, 82.3, 57.89), R3_NOTE) }),
    "1r-pot": ev("r3", { "k-shot": 5, reasoning: "pot", reviewers: 1, "max-debug-turns": 3, "max-review-turns": 5 }, { ...R3_TS, paper: paper(R3_SOURCE, R3_MODELS, "1R-Lp + PoT", r3Fig(79.3, 46.35, 85.4, 58.34), R3_NOTE) }),
    "3r-pot": ev("r3", { "k-shot": 5, reasoning: "pot", reviewers: 3, "max-debug-turns": 3, "max-review-turns": 5 }, { ...R3_TS, paper: paper(R3_SOURCE, R3_MODELS, "R³: 3R-Lp + PoT", r3Fig(81.4, 52.15, 88.1, 61.8), R3_NOTE) }),
  },
};


const R3_T1 = "R³ Table 1 (Spider dev and test by test-suite accuracy, BIRD dev by EX)";
const R3_T1_NOTE = "Spider columns are test-suite accuracy (ours: the TS cell, with --ts-dir); Spider-Test: a --bench whose dev split holds Spider's test questions";
/** Table 1's columns for one model: SD, ST, BD ("-" in the paper: left out). */
const r3T1 = (model: string, sd: number, st?: number, bd?: number) => ({ [`${model} Spider-Dev`]: sd, ...(st !== undefined ? { [`${model} Spider-Test`]: st } : {}), ...(bd !== undefined ? { [`${model} BIRD-Dev`]: bd } : {}) });
const R3_FULL = { "k-shot": 5, reasoning: "pot", reviewers: 3, "max-debug-turns": 3, "max-review-turns": 5 };
/** Another system's row of R³'s tables: its predictions, scored as they are, test-suite accuracy too. */
const givenTs = (set: string, p: Paper): RecipeRun => ({ ...given(set, p), ...R3_TS });
const r3Table1: Recipe = {
  name: "r3-table1",
  reproduces: "R³ Table 1 (Spider dev/test, BIRD dev; GPT-3.5-Turbo and GPT-4): R³ 5-shot beside Li et al., C3, MAC, DAIL, PET, DIN (their predictions via --set)",
  description: "R³ Table 1: R³ (3R-Lp + PoT, 5-shot) with --model (GPT-3.5-Turbo or GPT-4), beside other systems' predictions files (--set NAME=FILE, scored as they are); every row also reports test-suite accuracy with --ts-dir.",
  runs: {
    r3: ev("r3", R3_FULL, { ...R3_TS, paper: paper(R3_T1, R3_MODELS, "R³ 5-shot", { ...r3T1("GPT-3.5", 81.4, 81.1, 52.15), ...r3T1("GPT-4", 88.1, 89.9, 61.8) }, R3_T1_NOTE) }),
    "li-2023": givenTs("li-2023", paper(R3_T1, "GPT-3.5", "- (Li et al., 2023)", r3T1("GPT-3.5", 72.1, undefined, 37.22), "its predictions file (not in sqlmend)")),
    c3: givenTs("c3", paper(R3_T1, "GPT-3.5", "C3 (Dong et al., 2023)", r3T1("GPT-3.5", 81.8, 82.3), "C3's predictions file (not in sqlmend)")),
    "mac-sql.gpt-3.5": givenTs("mac-sql-gpt-3.5", paper(R3_T1, "GPT-3.5", "MAC (Wang et al., 2023)", r3T1("GPT-3.5", 80.6, 75.5, 50.56), "MAC-SQL's predictions file (not in sqlmend)")),
    "dail-sql": givenTs("dail-sql", paper(R3_T1, "GPT-4", "DAIL (Gao et al., 2023)", r3T1("GPT-4", 83.6, 86.6), "DAIL-SQL's predictions file (not in sqlmend)")),
    pet: givenTs("pet", paper(R3_T1, "GPT-4", "PET (Li et al., 2024)", r3T1("GPT-4", 82.2, 87.6), "PET-SQL's predictions file (not in sqlmend)")),
    "din-sql": givenTs("din-sql", paper(R3_T1, "GPT-4", "DIN (Pourreza and Rafiei, 2023)", r3T1("GPT-4", 82.8, 85.3, 50.72), "DIN-SQL's predictions file (not in sqlmend)")),
    "mac-sql.gpt-4": givenTs("mac-sql-gpt-4", paper(R3_T1, "GPT-4", "MAC (Wang et al., 2023)", r3T1("GPT-4", 86.8, 82.8, 59.39), "MAC-SQL's predictions file (not in sqlmend)")),
  },
};

const R3_T2 = "R³ Table 2 (Spider dev and test, test-suite accuracy)";
const r3Table2: Recipe = {
  name: "r3-table2",
  reproduces: "R³ Table 2 (Spider dev/test, Llama-3-8B and Llama-3-70B): CoT and R³ 0-shot, beside GPT-3.5 (Li et al., 2023)",
  description: "R³ Table 2: CoT (the writer alone) and R³ 0-shot (3R-Lp + PoT), run once per model with --model (Llama-3-8B, Llama-3-70B; each row says which ran); every row reports test-suite accuracy with --ts-dir.",
  runs: {
    "li-2023": givenTs("li-2023", paper(R3_T2, "GPT-3.5", "- (Li et al., 2023)", { "GPT-3.5 Spider-Dev": 72.1 }, "its predictions file (not in sqlmend)")),
    cot: ev("r3", { "k-shot": 0, reasoning: "cot", reviewers: 0, "max-debug-turns": 0 }, { ...R3_TS, paper: paper(R3_T2, "Llama-3-8B", "CoT", { "Llama-3-8B Spider-Dev": 52.1, "Llama-3-8B Spider-Test": 53.5 }, "the paper does not say CoT's shots: ours 0-shot, as its R³ rows; Spider-Test: a --bench whose dev split holds Spider's test questions") }),
    // The extracted table names Llama-3-70B on both R³ rows; the text (zero-shot Llama-3-8B with R³ beats GPT-3.5's
    // 72.1, and CoT by over 20%) makes the first one Llama-3-8B's.
    r3: ev("r3", { ...R3_FULL, "k-shot": 0 }, { ...R3_TS, paper: paper(R3_T2, "Llama-3-8B and Llama-3-70B (one run per model: --model; ours says which ran)", "R³ 0-shot", { "Llama-3-8B Spider-Dev": 72.8, "Llama-3-8B Spider-Test": 72.6, "Llama-3-70B Spider-Dev": 79.7, "Llama-3-70B Spider-Test": 80.3 }, "3R-Lp + PoT, R³'s default; the extracted table names Llama-3-70B twice, the text makes the first row Llama-3-8B's") }),
  },
};

const MEMO_T5 = "Memo-SQL Table 5 (appendix A.3), BIRD dev-new";
const MEMO_MODEL = "Qwen3-Coder-30B";
const MEMORY = { memory: "{run:memory}/memory.sqlite" };
const MEMO_REPEATS = "the paper's figures are means over three runs (--repeats 3)";
// The paper's Qwen3-Coder-30B pipeline has no ICL in final SQL generation (A.3: it lowered EX for that model only):
// its full row and every ablation subtracted from it run with --no-icl; "+ ICL" is our default.
const MEMORY_NO_ICL = { ...MEMORY, "no-icl": true };
const memoAblation: Recipe = {
  name: "memo-ablation",
  reproduces: "Memo-SQL Table 5 (ablations, BIRD dev-new, Qwen3-Coder-30B): full, w/o schema linking, random decomposition, w/o ReAct+Reflect, single style, w/o refinement, + ICL",
  description: "Memo-SQL Table 5: the memory built from the train split, then memo-sql and each ablation. The paper's Qwen3 'full' has no ICL, so full and every ablation run with --no-icl; its '+ ICL' row is our default (ICL on).",
  runs: {
    memory: { kind: "memo-build", options: {} },
    full: ev("memo-sql", MEMORY_NO_ICL, { paper: paper(MEMO_T5, MEMO_MODEL, "Memo-SQL (full; no ICL for Qwen3)", { EX: 68.5 }, MEMO_REPEATS) }),
    "no-linking": ev("memo-sql", { ...MEMORY_NO_ICL, "no-linking": true }, { paper: paper(MEMO_T5, MEMO_MODEL, "w/o Schema Linking", { EX: 67.7 }, MEMO_REPEATS) }),
    "random-decomposition": ev("memo-sql", { ...MEMORY_NO_ICL, decomposition: "random" }, { paper: paper(MEMO_T5, MEMO_MODEL, "w/ Random Question Decomposition", { EX: 67.2 }, MEMO_REPEATS) }),
    "no-react": ev("memo-sql", { ...MEMORY_NO_ICL, "no-react": true }, { paper: paper(MEMO_T5, MEMO_MODEL, "w/o ReAct+Reflect SQL Generation", { EX: 67.3 }, MEMO_REPEATS) }),
    "one-style": ev("memo-sql", { ...MEMORY_NO_ICL, styles: 1 }, { paper: paper(MEMO_T5, MEMO_MODEL, "w/o Multi-Style Generation", { EX: 67.6 }, MEMO_REPEATS) }),
    "no-refine": ev("memo-sql", { ...MEMORY_NO_ICL, "no-refine": true }, { paper: paper(MEMO_T5, MEMO_MODEL, "w/o SQL Refinement", { EX: 66.4 }, MEMO_REPEATS) }),
    icl: ev("memo-sql", MEMORY, { paper: paper(MEMO_T5, MEMO_MODEL, "+ ICL in Final SQL Generation", { EX: 67.1 }, MEMO_REPEATS) }),
  },
};

const MEMO_T3 = "Memo-SQL Table 3, BIRD dev";
const MEMO_T3_MODEL = "Qwen3-Coder-30B (Table 3 names no model; its Memo-SQL row equals Table 5's Qwen3 full, 68.5)";
const CANDIDATES = { ...MEMORY, candidates: "{run:candidates}/candidates.json" };
const memoCorrection: Recipe = {
  name: "memo-correction",
  reproduces: "Memo-SQL Table 3 (correction strategies on BIRD dev): memo-refine variants over the same nine candidates (--candidates)",
  description: "Memo-SQL Table 3: memo-sql's nine candidates written once (--no-refine, the baseline row), exported, then each correction variant on the same nine with memo-refine --candidates.",
  runs: {
    memory: { kind: "memo-build", options: {} },
    // The candidates as the paper's Qwen3 pipeline writes them: no ICL (Table 5's 66.4 and 68.5 are these rows).
    none: ev("memo-sql", { ...MEMORY_NO_ICL, "no-refine": true }, { paper: paper(MEMO_T3, MEMO_T3_MODEL, "Baseline (no correction)", { EX: 66.4 }) }),
    candidates: { kind: "memo-candidates", from: "none", options: {} },
    direct: ev("memo-refine", { ...CANDIDATES, retrieval: "none", "refine-rounds": 1 }, { initial: "none", paper: paper(MEMO_T3, MEMO_T3_MODEL, "+ Direct Correction", { EX: 66.6 }) }),
    top4: ev("memo-refine", { ...CANDIDATES, retrieval: "top4" }, { initial: "none", paper: paper(MEMO_T3, MEMO_T3_MODEL, "+ RAG (top4, unfiltered)", { EX: 67.5 }) }),
    random: ev("memo-refine", { ...CANDIDATES, retrieval: "random" }, { initial: "none", paper: paper(MEMO_T3, MEMO_T3_MODEL, "+ Random RAG (unfiltered)", { EX: 67.6 }) }),
    "din-sql": ev("memo-refine", { ...CANDIDATES, retrieval: "none" }, { initial: "none", paper: paper(MEMO_T3, MEMO_T3_MODEL, "DIN-SQL (A.8's critique-refine adaptation)", { EX: 66.5 }) }),
    filtered: ev("memo-refine", CANDIDATES, { initial: "none", paper: paper(MEMO_T3, MEMO_T3_MODEL, "Memo-SQL (ICL + RAG, filtered)", { EX: 68.5 }) }),
    // Methods sqlmend does not have: their predictions, given by the user, scored as they are (as-given).
    "solid-sql": given("solid-sql", paper(MEMO_T3, MEMO_T3_MODEL, "SOLID-SQL (Liu et al., 2025a)", { EX: 67.4 }, "SOLID-SQL's predictions file (the method is not in sqlmend)")),
    share: given("share", paper(MEMO_T3, MEMO_T3_MODEL, "SHARE (Qu et al., 2025)", { EX: 69.2 }, "SHARE's predictions file (three fine-tuned models, not in sqlmend)")),
  },
};


const MEMO_T1 = "Memo-SQL Table 1, BIRD dev (the parenthesised figure: BIRD dev-new)";
const birdDev = (dev: number, devNew?: number) => ({ "BIRD dev EX": dev, ...(devNew !== undefined ? { "BIRD dev-new EX": devNew } : {}) });
const memoTable1: Recipe = {
  name: "memo-table1",
  reproduces: "Memo-SQL Table 1 (BIRD dev and dev-new; Qwen2.5-Coder-32B, Qwen3-Coder-30B-A3B): Memo-SQL beside Distillery, ROUTE and Alpha-SQL (their predictions via --set)",
  description: "Memo-SQL Table 1: the memory from the train split, then memo-sql as the paper runs it for each model — with ICL for Qwen2.5-Coder-32B, without (--no-icl) for Qwen3-Coder-30B-A3B — run with --model (each row says which ran); the other methods' predictions files via --set NAME=FILE. Run on BIRD dev, then again on dev-new for the parenthesised figures.",
  runs: {
    memory: { kind: "memo-build", options: {} },
    "memo-sql": ev("memo-sql", MEMORY, { paper: paper(MEMO_T1, "Qwen2.5-Coder-32B", "Memo-SQL (Iterative Refinement)", birdDev(64.9, 64.2), `with ICL, as the paper runs every model but Qwen3; ${MEMO_REPEATS}`) }),
    "memo-sql.no-icl": ev("memo-sql", MEMORY_NO_ICL, { paper: paper(MEMO_T1, "Qwen3-Coder-30B-A3B", "Memo-SQL (Ours)", birdDev(67.6, 68.5), `no ICL, the paper's Qwen3 pipeline (A.3); ${MEMO_REPEATS}`) }),
    distillery: given("distillery", paper(MEMO_T1, "Llama-3.1-405B", "Distillery (Maamari et al., 2024)", birdDev(59.2), "Distillery's predictions file (not in sqlmend)")),
    "route.qwen2.5": given("route-qwen2.5", paper(MEMO_T1, "Qwen2.5-Coder-32B", "ROUTE (Multi-task only) (Qin et al., 2024)", birdDev(59.8), "ROUTE's predictions file (not in sqlmend)")),
    "route.qwen3": given("route-qwen3", paper(MEMO_T1, "Qwen3-Coder-30B-A3B", "ROUTE (Multi-task only) (Qin et al., 2024)", birdDev(65.2), "ROUTE's predictions file (not in sqlmend)")),
    "alpha-sql.qwen2.5": given("alpha-sql-qwen2.5", paper(MEMO_T1, "Qwen2.5-Coder-32B", "Alpha-SQL* (Li et al., 2025b)", birdDev(64.4, 64.3), "Alpha-SQL's predictions file (not in sqlmend); the paper scores it with empty results kept (A.4)")),
    "alpha-sql.qwen3": given("alpha-sql-qwen3", paper(MEMO_T1, "Qwen3-Coder-30B-A3B", "Alpha-SQL* (Li et al., 2025b)", birdDev(68.2, 67.2), "Alpha-SQL's predictions file (not in sqlmend); the paper scores it with empty results kept (A.4)")),
  },
};

const MEMO_T6 = "Memo-SQL Table 6, BIRD dev";
const MEMO_T6_MODELS = "DeepSeek-Coder-V2-Lite, Qwen2.5-Coder-32B, Qwen3-Coder-30B-A3B (one experiment per model: --model; ours says which ran)";
const perModel = (deepseek: number | undefined, qwen25: number | undefined, qwen3: number | undefined) => ({
  ...(deepseek !== undefined ? { "DeepSeek-Coder-V2-Lite EX": deepseek } : {}),
  ...(qwen25 !== undefined ? { "Qwen2.5-Coder-32B EX": qwen25 } : {}),
  ...(qwen3 !== undefined ? { "Qwen3-Coder-30B-A3B EX": qwen3 } : {}),
});
const memoTable6: Recipe = {
  name: "memo-table6",
  reproduces: "Memo-SQL Table 6 (BIRD dev; DeepSeek-Coder-V2-Lite, Qwen2.5-Coder-32B, Qwen3-Coder-30B-A3B): baseline, ROUTE, Alpha-SQL, Memo-SQL — one experiment per model with --model",
  description: "Memo-SQL Table 6: run once per model (--model NAME, --out per model); each row prints the paper's figure for every model and says which model ran ours. Memo-SQL runs with ICL (the paper's set-up for DeepSeek-Coder-V2-Lite and Qwen2.5-Coder-32B) and without (--no-icl, its Qwen3 set-up); ROUTE and Alpha-SQL are the user's predictions files for the model run (--set route=FILE, --set alpha-sql=FILE).",
  runs: {
    memory: { kind: "memo-build", options: {} },
    baseline: ev("baseline", {}, { paper: paper(MEMO_T6, MEMO_T6_MODELS, "Baseline", perModel(32.5, 52.8, 62.1), "the paper does not give its baseline's prompt; ours is sqlmend's baseline (zero-shot)") }),
    route: given("route", paper(MEMO_T6, MEMO_T6_MODELS, "ROUTE", perModel(51.6, 59.8, 65.2), "ROUTE's predictions with the model run, as a file (not in sqlmend)")),
    "alpha-sql": given("alpha-sql", paper(MEMO_T6, MEMO_T6_MODELS, "Alpha-SQL", perModel(53.4, 64.4, 68.2), "Alpha-SQL's predictions with the model run, as a file (not in sqlmend)")),
    "memo-sql": ev("memo-sql", MEMORY, { paper: paper(MEMO_T6, MEMO_T6_MODELS, "Memo-SQL (Ours), with ICL", perModel(53.8, 64.9, undefined), `the paper's set-up for these two models (Qwen3's is the no-icl row); ${MEMO_REPEATS}`) }),
    "memo-sql.no-icl": ev("memo-sql", MEMORY_NO_ICL, { paper: paper(MEMO_T6, MEMO_T6_MODELS, "Memo-SQL (Ours), no ICL", perModel(undefined, undefined, 67.6), `the paper's set-up for Qwen3-Coder-30B-A3B (A.3); ${MEMO_REPEATS}`) }),
  },
};

const MEMO_T7 = "Memo-SQL Table 7, Spider dev (the memory built on BIRD's train split)";
const MEMO_T7_MODEL = "Qwen3-Coder-30B-A3B-Instruct";
const BIRD_MEMORY = { memory: "{set:bird-memory}", "no-icl": true };
const BIRD_MEMORY_NOTE = "the memory from BIRD's train split (sqlmend memo build --bench BIRD --out FILE, then --set bird-memory=FILE); no ICL: no Spider data, and the paper's Qwen3 pipeline";
const memoTable7: Recipe = {
  name: "memo-table7",
  reproduces: "Memo-SQL Table 7 (Spider dev, a memory built on BIRD's train split; Qwen3-Coder-30B-A3B): Memo-SQL and w/o SQL correction beside DAIL-SQL, ZeroNL2SQL, MAC-SQL, SuperSQL, CodeS, ROUTE, Alpha-SQL (their predictions via --set)",
  description: "Memo-SQL Table 7: --bench is Spider; memo-sql reads a memory built on BIRD's train split (--set bird-memory=FILE, made by sqlmend memo build --bench BIRD), with and without refinement; the other methods are their predictions files (--set NAME=FILE).",
  runs: {
    "memo-sql": ev("memo-sql", BIRD_MEMORY, { paper: paper(MEMO_T7, MEMO_T7_MODEL, "Memo-SQL (Ours)", { EX: 86.5 }, BIRD_MEMORY_NOTE) }),
    "memo-sql.no-refine": ev("memo-sql", { ...BIRD_MEMORY, "no-refine": true }, { paper: paper(MEMO_T7, MEMO_T7_MODEL, "w/o SQL Correction", { EX: 85.8 }, BIRD_MEMORY_NOTE) }),
    ...Object.fromEntries(
      ([
        ["dail-sql", "DAIL-SQL (Gao et al., 2023)", "GPT-4", 83.6],
        ["zeronl2sql", "ZeroNL2SQL (Fan et al., 2024)", "GPT-4", 84.0],
        ["mac-sql", "MAC-SQL (Wang et al., 2023)", "GPT-4", 86.8],
        ["supersql", "SuperSQL (Li et al., 2024a)", "GPT-4", 87.0],
        ["codes", "SFT CodeS (Li et al., 2024b)", "CodeS-15B", 84.9],
        ["route-ft", "ROUTE (Multi-task + FT) (Qin et al., 2024)", "Qwen2.5-Coder-14B", 87.3],
        ["route", "ROUTE (Multi-task only) (Qin et al., 2024)", "Qwen2.5-Coder-14B", 80.0],
        ["alpha-sql", "Alpha-SQL (Li et al., 2025b)", "Qwen3-Coder-30B-A3B-Instruct", 87.8],
      ] as const).map(([key, row, model, ex]) => [key, given(key, paper(MEMO_T7, model, row, { EX: ex }, `${row.split(" (")[0]}'s predictions file (not in sqlmend)`))]),
    ),
  },
};

const TS_T4 = "TS-SQL Table 4, BIRD dev";
const TS_T5 = "TS-SQL Table 5, BIRD dev";
const TS_MODEL = "Gemini 1.5 Pro (generation, revision); coders Gemini 1.5 Pro, GPT-4o, Claude 3.5 Sonnet";
const smc = (s: number, m: number, c: number, all: number) => ({ Simple: s, Moderate: m, Challenging: c, EX: all });
const ZERO_SHOT = { link: true, "max-fix-rounds": 0 };
// The paper's TS-SQL (Table 4's first row, every "+ TS-SQL" of Table 5) votes over three coders' test code with a
// fine-tuned selector model, which sqlmend cannot reproduce: its rows run one coder, and say so; the coders rows run
// the user's three coders (--set coder-models=A,B,C) with a prompted selector or by majority (Table 3's 67.60).
const ONE_CODER = "one coder (the coder role's model), no selector; the paper's three coders (Gemini 1.5 Pro, GPT-4o, Claude 3.5 Sonnet) with a fine-tuned selector (not reproducible: the selector is the paper's fine-tuned model)";
const CODERS = { "coder-models": "{set:coder-models}" };
const tsSqlTable4: Recipe = {
  name: "ts-sql-table4",
  reproduces: "TS-SQL Table 4 (ablations, BIRD dev, Gemini 1.5 Pro): TS-SQL, w/o DG, w/o CI, w/o CG, w/o all; Figure 4 (random sampled data); TS-SQL with three coders (--set coder-models=A,B,C) by selection and by majority (Table 3)",
  description: "TS-SQL Table 4: ts-sql and each agent removed, one coder each (the paper's rows vote over three coders with a fine-tuned selector: each row says so); 'w/o all' is TS-SQL's own generator alone (linking, then zero-shot SQL); Figure 4's sampled-data variant; and TS-SQL over three coders of your own (--set coder-models=A,B,C): a prompted selector (the selector role) beside the paper's fine-tuned 70.93, and majority voting beside Table 3's 67.60.",
  runs: {
    "ts-sql": ev("ts-sql", {}, { paper: paper(TS_T4, TS_MODEL, "TS-SQL", smc(75.35, 64.73, 62.5, 70.93), undefined, ONE_CODER) }),
    "no-dg": ev("ts-sql", { "no-data-agent": "schema" }, { paper: paper(TS_T4, TS_MODEL, "w/o DG (test code from the schema)", smc(65.51, 52.04, 52.78, 60.23), undefined, ONE_CODER) }),
    "no-ci": ev("ts-sql", { "no-inspection": true }, { paper: paper(TS_T4, TS_MODEL, "w/o CI", smc(71.46, 58.49, 52.08, 65.71), undefined, ONE_CODER) }),
    "no-cg": ev("ts-sql", { "no-test-code": true }, { paper: paper(TS_T4, TS_MODEL, "w/o CG", smc(31.46, 26.67, 25.69, 29.47), undefined, ONE_CODER) }),
    "no-all": ev("baseline", ZERO_SHOT, { paper: paper(TS_T4, TS_MODEL, "w/o all", smc(63.68, 50.54, 47.22, 58.15)) }),
    "no-dg.sample": ev("ts-sql", { "no-data-agent": "sample" }, { paper: paper("TS-SQL Figure 4, BIRD dev", TS_MODEL, "randomly sampled original data (1/10) instead of test data", { EX: 61.99 }, "the figure's value, as §4.3.1 states it", ONE_CODER) }),
    "ts-sql.coders-select": ev("ts-sql", { ...CODERS, "code-vote": "select" }, { paper: paper(TS_T4, TS_MODEL, "TS-SQL (three coders, fine-tuned selection)", smc(75.35, 64.73, 62.5, 70.93), "your three coder models, --set coder-models=A,B,C", "the selector is the selector role's model, prompted; the paper's is fine-tuned (not reproducible)") }),
    "ts-sql.coders-majority": ev("ts-sql", { ...CODERS, "code-vote": "majority" }, { paper: paper("TS-SQL Table 3, BIRD dev", TS_MODEL, "TS-SQL (majority voting)", { EX: 67.6 }, "your three coder models, --set coder-models=A,B,C") }),
  },
};

const tsSqlTable5: Recipe = {
  name: "ts-sql-table5",
  reproduces: "TS-SQL Table 5 (BIRD dev): self-refinement methods on zero-shot SQL, and TS-SQL on DIN-SQL, MAC-SQL, CHESS, OpenSearch-v2 (their predictions via --set)",
  description: "TS-SQL Table 5: ts-sql-refine on zero-shot SQL (--correct all) beside the other self-refinement methods (DIN-SQL's and MAC-SQL's as their guidelines through magic's corrector: --set guideline-pourreza=FILE, --set guideline-wang=FILE), and on other systems' predictions files (--set din-sql=FILE, mac-sql=FILE, chess=FILE, opensearch-v2=FILE).",
  runs: {
    "zero-shot": ev("baseline", ZERO_SHOT, { paper: paper(TS_T5, "Gemini 1.5 Pro", "Gemini 1.5 Pro (zero-shot)", smc(63.68, 50.54, 47.22, 58.15)) }),
    "zero-shot.ts-sql": ev("ts-sql-refine", {}, { initial: "zero-shot", correct: "all", paper: paper(TS_T5, TS_MODEL, "+ TS-SQL", smc(75.35, 64.73, 62.5, 70.93), undefined, ONE_CODER) }),
    // DIN-SQL's self-correction is a written guideline applied to every SQL, MAC-SQL's refiner a revision guideline:
    // magic's corrector with that guideline, as MAGIC's Table 1 runs them (the user gives the guideline's text).
    "zero-shot.din-sql": ev("magic", { guideline: "{set:guideline-pourreza}" }, { initial: "zero-shot", correct: "all", paper: paper(TS_T5, "Gemini 1.5 Pro", "+ DIN-SQL", smc(65.3, 52.69, 52.78, 60.3), "DIN-SQL's self-correction guideline file", "DIN-SQL's self-correction as its guideline text applied by magic's corrector") }),
    "zero-shot.mac-sql": ev("magic", { guideline: "{set:guideline-wang}" }, { initial: "zero-shot", correct: "all", paper: paper(TS_T5, "Gemini 1.5 Pro", "+ MAC-SQL", smc(67.68, 56.56, 52.78, 62.91), "MAC-SQL's refiner guideline file", "MAC-SQL's refiner guideline applied by magic's corrector, not MAC-SQL's own execute-and-refine loop") }),
    "zero-shot.chess": given("zero-shot-chess", paper(TS_T5, "Gemini 1.5 Pro", "+ CHESS", smc(70.7, 56.99, 53.47, 64.93), "CHESS's revision of the zero-shot SQL, as a predictions file (CHESS is not in sqlmend)")),
    ...Object.fromEntries(
      ([["din-sql", "DIN-SQL", smc(67.14, 49.89, 45.14, 59.84), smc(75.57, 64.3, 65.28, 71.19)], ["mac-sql", "MAC-SQL", smc(69.19, 49.89, 51.39, 61.67), smc(75.14, 63.87, 63.89, 70.66)], ["chess", "CHESS IR+SS+CG", smc(70.92, 53.76, 53.47, 64.08), smc(75.89, 65.16, 63.89, 71.51)], ["opensearch-v2", "OpenSearch-v2", smc(74.05, 62.15, 61.11, 69.23), smc(75.89, 64.09, 64.58, 71.25)]] as const).map(
        ([key, name, alone, fixed]) => [
          `${key}.ts-sql`,
          ev("ts-sql-refine", {}, {
            initial: `{set:${key}}`,
            correct: "all",
            paper: paper(TS_T5, TS_MODEL, `${name} + TS-SQL`, { ...fixed, [`${name} alone EX`]: alone.EX }, `${name}'s predictions file`, ONE_CODER),
          }),
        ],
      ),
    ),
  },
};


const TS_T6 = "TS-SQL Table 6 (token cost per SQL, BIRD dev)";
const tsSqlTable6: Recipe = {
  name: "ts-sql-table6",
  reproduces: "TS-SQL Table 6 (token cost of one SQL, BIRD dev): TS-SQL's tokens per question beside 2,369; CHESS (2,672) and E-SQL (3,237) are not in sqlmend",
  description: "TS-SQL Table 6: ts-sql's tokens per question (every chat-model call, the response cache's included) beside the paper's tokens per SQL; CHESS and E-SQL are printed with the reason they do not run (the paper counts their tokens from their prompt templates).",
  table: { title: "Token cost per SQL (TS-SQL Table 6)", columns: ["tokens", "paper:Tokens per SQL", "calls", "ex", "differs"] },
  runs: {
    "ts-sql": ev("ts-sql", {}, { paper: paper(TS_T6, TS_MODEL, "TS-SQL", { "Tokens per SQL": 2369 }, "ours: tokens/q, all steps of test case generation and self-refinement", ONE_CODER) }),
    chess: { kind: "eval", options: {}, needs: "CHESS is not in sqlmend (the paper counts its tokens from its prompt templates)", paper: paper(TS_T6, "as in its paper", "CHESS", { "Tokens per SQL": 2672, "Growth Rate %": 12.8 }) },
    "e-sql": { kind: "eval", options: {}, needs: "E-SQL is not in sqlmend (the paper counts its tokens from its prompt templates)", paper: paper(TS_T6, "as in its paper", "E-SQL", { "Tokens per SQL": 3237, "Growth Rate %": 36.6 }) },
  },
};

/**
 * Planned comparisons (docs/experiments.md): the run each row is tested against, where it is not a corrector's own
 * initial SQL (the default). Each row against the run it differs from in one factor, as the paper's table reads:
 * R³'s reviewers added to the writer's CoT or PoT, then three reviewers against one; Memo-SQL's ablations (run
 * without ICL, as the paper's Qwen3 full) against `full`, and `icl` (+ ICL, our default) against `full`; TS-SQL's
 * ablations against TS-SQL; another system's predictions scored as they are against what they revise, or nothing.
 */
const REFERENCES: Record<string, Record<string, string | false>> = {
  "r3-table3": { pot: "cot", "1r-cot": "cot", "1r-pot": "pot", "3r-pot": "1r-pot" },
  "memo-ablation": { icl: "full", "no-linking": "full", "random-decomposition": "full", "no-react": "full", "one-style": "full", "no-refine": "full" },
  "memo-correction": { "solid-sql": false, share: false },
  "ts-sql-table4": { "no-dg": "ts-sql", "no-ci": "ts-sql", "no-cg": "ts-sql", "no-all": "ts-sql", "no-dg.sample": "ts-sql", "ts-sql.coders-select": "ts-sql", "ts-sql.coders-majority": "ts-sql" },
  "r3-table2": { r3: "cot" },
  "memo-table1": { "memo-sql": "memo-sql.no-icl" },
  "memo-table7": { "memo-sql.no-refine": "memo-sql" },
  "ts-sql-table5": { "zero-shot.chess": "zero-shot" },
};
function withReferences(r: Recipe): Recipe {
  const refs = REFERENCES[r.name] ?? {};
  // A renamed run must not lose its comparison quietly.
  for (const name of Object.keys(refs)) if (!r.runs[name]) throw new Error(`REFERENCES: recipe ${r.name} has no run '${name}'`);
  return { ...r, runs: Object.fromEntries(Object.entries(r.runs).map(([name, run]) => [name, refs[name] !== undefined ? { ...run, reference: refs[name] } : run])) };
}

const PAPER_RECIPES: Record<string, Recipe> = Object.fromEntries(
  [magicTable1, magicTable2, magicGuideline, magicTable5, r3Table1, r3Table2, r3Table3, memoTable1, memoAblation, memoCorrection, memoTable6, memoTable7, tsSqlTable4, tsSqlTable5, tsSqlTable6].map((r) => [r.name, withReferences(r)]),
);

export const CORRECTORS = ["magic", "r3-review", "memo-refine", "ts-sql-refine", "repair"] as const;
export const ALL_SCENARIOS = ["all", "errors", "incorrect"] as const;

/** Built-in recipes, by name. */
export const BUILT_IN_RECIPES: Record<string, Recipe> = {
  correctors: {
    name: "correctors",
    reproduces: "every corrector × MAGIC's three correction scenarios on one initial SQL (baseline's); no paper figures (no paper ran them all)",
    description: "every corrector on the same initial SQL (baseline's) under MAGIC's three scenarios (Table 1); MAGIC's guideline learnt on the train split",
    runs: {
      initial: { kind: "eval", graph: "baseline", options: {} },
      guideline: { kind: "magic-guideline", options: {} },
      ...Object.fromEntries(
        CORRECTORS.flatMap((graph) =>
          ALL_SCENARIOS.map((scenario) => [
            `${graph}.${scenario}`,
            { kind: "eval" as const, graph, initial: "initial", correct: scenario, options: graph === "magic" ? { guideline: "{run:guideline}/guideline.md" } : {} },
          ]),
        ),
      ),
    },
  },
  ...PAPER_RECIPES,
};
