/**
 * Built-in recipes that reproduce a paper table each, with the paper's reported figures beside every row (its model
 * names as it writes them). A row whose method sqlmend lacks is a run with `needs` (never run, printed with the
 * reason); one that needs a file only the user has (a human-written guideline, another system's predictions) reads
 * it from `--set NAME=FILE` and is listed with what it needs until given.
 */
const MAGIC_T1 = (scenario) => `MAGIC Table 1, BIRD dev, "${scenario}" scenario (T column as EX)`;
const MAGIC_MODEL = "GPT-4 (DIN-SQL's initial SQL)";
const SCENARIO_NAMES = { incorrect: "Correcting incorrect SQLs", errors: "SQLs with Exec error", all: "All SQLs" };
const SCENARIOS = ["incorrect", "errors", "all"];
// MAGIC Table 1's T figures by row and scenario (incorrect, errors, all).
const MAGIC_TABLE1 = [
    { key: "self-debugging", row: "Self-Debugging (Chen et al., 2023)", ex: [57.24, 56.78, 56.58], run: () => ({ graph: "self-debugging" }) },
    { key: "self-consistency", row: "Self-Consistency (Wang et al., 2022)", ex: [58.08, 56.58, 57.17], run: () => ({ graph: "self-consistency" }) },
    { key: "multiple-prompt", row: "Multiple-Prompt (Lee et al., 2024)", ex: [57.86, 56.65, 57.3], run: () => ({ graph: "multiple-prompt" }) },
    { key: "human-wang", row: "Human Expert G (Wang et al., 2024a)", ex: [56.6, 56.58, 46.14], run: () => ({ graph: "magic", options: { guideline: "{set:guideline-wang}" } }) },
    { key: "human-pourreza", row: "Human Expert G (Pourreza et al., 2023)", ex: [57.76, 56.98, 55.8], run: () => ({ graph: "magic", options: { guideline: "{set:guideline-pourreza}" } }) },
    { key: "magic", row: "MAGIC G (ours)", ex: [59.13, 57.32, 58.55], run: () => ({ graph: "magic", options: { guideline: "{run:guideline}/guideline.md" } }) },
];
// Table 1's Simple / Moderate / Challenging columns by row and scenario (incorrect, errors, all); T is in MAGIC_TABLE1.
const MAGIC_TABLE1_SMC = {
    initial: [[63.14, 49.03, 38.19]],
    "self-debugging": [[63.57, 50.11, 39.67], [63.35, 49.03, 39.58], [63.03, 49.25, 38.89]],
    "self-consistency": [[64.56, 50.79, 40.09], [63.24, 49.03, 38.19], [64.0, 49.68, 37.5]],
    "multiple-prompt": [[64.22, 50.75, 40.02], [63.35, 49.03, 38.19], [63.68, 50.11, 39.58]],
    "human-wang": [[63.18, 49.19, 38.3], [63.2, 49.03, 38.19], [47.8, 46.22, 35.3]],
    "human-pourreza": [[64.32, 50.32, 39.58], [63.58, 49.03, 38.89], [62.49, 48.17, 37.5]],
    magic: [[65.84, 51.61, 40.28], [63.69, 50.15, 39.59], [65.75, 49.46, 41.67]],
};
/** A Table 1 row's figures for one scenario: EX (the T column) and its difficulty columns. */
const magicT1Figures = (key, scenario, ex) => {
    const [simple, moderate, challenging] = MAGIC_TABLE1_SMC[key][scenario] ?? MAGIC_TABLE1_SMC[key][0];
    return { EX: ex, Simple: simple, Moderate: moderate, Challenging: challenging };
};
const paper = (source, model, row, figures, note) => ({ source, model, row, figures, ...(note ? { note } : {}) });
const ev = (graph, options = {}, more = {}) => ({ kind: "eval", graph, options, ...more });
/** Another system's predictions (`--set NAME=FILE`), scored as they are by the as-given graph: its row beside ours. */
const given = (set, p) => ({ kind: "eval", graph: "as-given", options: {}, initial: `{set:${set}}`, correct: "all", paper: p });
const magicTable1 = {
    name: "magic-table1",
    reproduces: "MAGIC Table 1 (BIRD dev, GPT-4 on DIN-SQL's SQL): correction scenarios × methods; baseline's SQL as the initial",
    description: "MAGIC Table 1: each self-correction method under --correct incorrect, errors and all on the same initial SQL (ours: baseline; the paper's: DIN-SQL). Human-written guidelines come from --set guideline-wang=FILE and --set guideline-pourreza=FILE.",
    runs: {
        initial: ev("baseline", {}, { paper: paper(MAGIC_T1("every"), MAGIC_MODEL, "W/o self-correction", magicT1Figures("initial", 0, 56.52), "the paper's initial SQL is DIN-SQL's") }),
        guideline: { kind: "magic-guideline", options: {} },
        ...Object.fromEntries(MAGIC_TABLE1.flatMap((m) => SCENARIOS.map((s, i) => {
            const extra = m.run(s);
            const note = m.key.startsWith("human") ? "a human-written guideline file" : undefined;
            const run = { kind: "eval", ...(extra.graph ? { graph: extra.graph } : {}), options: extra.options ?? {}, initial: "initial", correct: s, ...(extra.needs ? { needs: extra.needs } : {}), paper: paper(MAGIC_T1(SCENARIO_NAMES[s]), MAGIC_MODEL, m.row, magicT1Figures(m.key, i, m.ex[i]), note) };
            return [`${m.key}.${s}`, run];
        }))),
    },
};
const T2 = "MAGIC Table 2, Spider dev (incorrect SQL corrected)";
const magicTable2 = {
    name: "magic-table2",
    reproduces: "MAGIC Table 2 (Spider dev, GPT-4 on DIN-SQL's SQL, incorrect SQL corrected): self-consistency, multiple-prompt, two human-written guidelines and MAGIC's guideline from Spider's train split",
    description: "MAGIC Table 2: each correction under --correct incorrect on the same initial SQL (ours: baseline; the paper's: DIN-SQL), MAGIC's guideline learnt on the train split of --bench (Spider's layout). Human-written guidelines come from --set guideline-wang=FILE and --set guideline-pourreza=FILE.",
    runs: {
        initial: ev("baseline", {}, { paper: paper(T2, MAGIC_MODEL, "w/o self-correction", { EX: 78.62 }, "the paper's initial SQL is DIN-SQL's") }),
        guideline: { kind: "magic-guideline", options: {} },
        "self-consistency": ev("self-consistency", {}, { initial: "initial", correct: "incorrect", paper: paper(T2, MAGIC_MODEL, "Self-Consistency (Wang et al., 2022)", { EX: 81.64 }) }),
        "multiple-prompt": ev("multiple-prompt", {}, { initial: "initial", correct: "incorrect", paper: paper(T2, MAGIC_MODEL, "Multiple-Prompt (Lee et al., 2024)", { EX: 80.22 }) }),
        "human-wang": ev("magic", { guideline: "{set:guideline-wang}" }, { initial: "initial", correct: "incorrect", paper: paper(T2, MAGIC_MODEL, "Human's G (Wang et al., 2024a)", { EX: 81.15 }, "a human-written guideline file") }),
        "human-pourreza": ev("magic", { guideline: "{set:guideline-pourreza}" }, { initial: "initial", correct: "incorrect", paper: paper(T2, MAGIC_MODEL, "Human's G (Pourreza et al., 2023)", { EX: 80.35 }, "a human-written guideline file") }),
        magic: ev("magic", { guideline: "{run:guideline}/guideline.md" }, { initial: "initial", correct: "incorrect", paper: paper(T2, MAGIC_MODEL, "MAGIC's G (ours)", { EX: 85.66 }) }),
    },
};
const T3 = "MAGIC Table 3, BIRD dev (incorrect SQL corrected)";
const T4 = "MAGIC Table 4 (train set; BIRD and Spider columns) and Figure 3 (corrected within k iterations, plotted only)";
const magicGuideline = {
    name: "magic-guideline",
    reproduces: "MAGIC Table 3 (EX after correction with the guideline after 1, 5, 10 and all batches), Table 4 (max_i 2 and 5, with and without the manager: EX, AVG_i) and Figure 3 (corrected within k)",
    description: "MAGIC Tables 3 and 4, Figure 3. Table 3: magic under --correct incorrect with the guideline after 1, 5 and 10 batches of 10 and the final one (0 batches is the initial run). Table 4 / Figure 3: guideline runs on the train split with --max-iter 2 and 5, with and without the manager (EX after the cycle, AVG_i, corrected within k iterations).",
    runs: {
        initial: ev("baseline", {}, { paper: paper(T3, MAGIC_MODEL, "0 batches", { EX: 56.52 }) }),
        guideline: { kind: "magic-guideline", options: { batch: 10, "max-iter": 5 }, paper: paper(T4, MAGIC_MODEL, "MAGIC max_i=5, w/ manager", { "BIRD EX": 81.81, "BIRD VES": 84.19, "BIRD AVG_i": 2.41, "Spider EX": 91.78, "Spider AVG_i": 2.15 }) },
        ...Object.fromEntries([["batch-001", "1 batch", 57.4], ["batch-005", "5 batches", 58.8], ["batch-010", "10 batches", 59.13]].map(([file, row, ex]) => [
            `magic.${file}`,
            ev("magic", { guideline: `{run:guideline}/guideline-${file}.md` }, { initial: "initial", correct: "incorrect", paper: paper(T3, MAGIC_MODEL, row, { EX: ex }, "a batch file exists once the guideline run merged that many batches (10 questions' feedback each)") }),
        ])),
        "magic.all": ev("magic", { guideline: "{run:guideline}/guideline.md" }, { initial: "initial", correct: "incorrect", paper: paper(T3, MAGIC_MODEL, "39 (All) batches", { EX: 59.13 }) }),
        "guideline.m2": { kind: "magic-guideline", options: { "max-iter": 2 }, paper: paper(T4, MAGIC_MODEL, "MAGIC max_i=2, w/ manager", { "BIRD EX": 78.94, "BIRD VES": 80.22, "BIRD AVG_i": 1.12, "Spider EX": 86.52, "Spider AVG_i": 1.05 }) },
        "guideline.m2-nm": { kind: "magic-guideline", options: { "max-iter": 2, "no-manager": true }, paper: paper(T4, MAGIC_MODEL, "MAGIC max_i=2, w/o manager", { "BIRD EX": 73.01, "BIRD VES": 68.29, "BIRD AVG_i": 1.17, "Spider EX": 81.4, "Spider AVG_i": 1.11 }) },
        "guideline.m5-nm": { kind: "magic-guideline", options: { "max-iter": 5, "no-manager": true }, paper: paper(T4, MAGIC_MODEL, "MAGIC max_i=5, w/o manager", { "BIRD EX": 78.6, "BIRD VES": 79.58, "BIRD AVG_i": 2.87, "Spider EX": 83.28, "Spider AVG_i": 2.22 }) },
    },
};
const R3_SOURCE = "R³ Table 3 (Spider dev and BIRD dev, 5-shot)";
const R3_MODELS = "GPT-3.5-Turbo and GPT-4 (pass --model for one of them)";
const r3Fig = (a, b, c, d) => ({ "GPT-3.5-Turbo Spider": a, "GPT-3.5-Turbo BIRD": b, "GPT-4 Spider": c, "GPT-4 BIRD": d });
const r3Table3 = {
    name: "r3-table3",
    reproduces: "R³ Table 3 (Spider/BIRD dev, 5-shot, GPT-3.5-Turbo and GPT-4): CoT, PoT, 1R-Lp + CoT, 1R-Lp + PoT, R³ (3R-Lp + PoT)",
    description: "R³ Table 3: the writer alone with CoT or PoT (no reviewers, no debug loop), then Algorithm 1 with 1 and 3 reviewers; every row 5-shot.",
    runs: {
        cot: ev("r3", { "k-shot": 5, reasoning: "cot", reviewers: 0, "max-debug-turns": 0 }, { paper: paper(R3_SOURCE, R3_MODELS, "CoT", r3Fig(78.2, 37.22, 79.7, 53.3)) }),
        pot: ev("r3", { "k-shot": 5, reasoning: "pot", reviewers: 0, "max-debug-turns": 0 }, { paper: paper(R3_SOURCE, R3_MODELS, "PoT", r3Fig(78.5, 36.96, 80.0, 54.61)) }),
        "1r-cot": ev("r3", { "k-shot": 5, reasoning: "cot", reviewers: 1, "max-debug-turns": 3, "max-review-turns": 5 }, { paper: paper(R3_SOURCE, R3_MODELS, "1R-Lp + CoT", r3Fig(78.3, 44.13, 82.3, 57.89)) }),
        "1r-pot": ev("r3", { "k-shot": 5, reasoning: "pot", reviewers: 1, "max-debug-turns": 3, "max-review-turns": 5 }, { paper: paper(R3_SOURCE, R3_MODELS, "1R-Lp + PoT", r3Fig(79.3, 46.35, 85.4, 58.34)) }),
        "3r-pot": ev("r3", { "k-shot": 5, reasoning: "pot", reviewers: 3, "max-debug-turns": 3, "max-review-turns": 5 }, { paper: paper(R3_SOURCE, R3_MODELS, "R³: 3R-Lp + PoT", r3Fig(81.4, 52.15, 88.1, 61.8)) }),
    },
};
const MEMO_T5 = "Memo-SQL Table 5 (appendix A.3), BIRD dev-new";
const MEMO_MODEL = "Qwen3-Coder-30B";
const MEMORY = { memory: "{run:memory}/memory.sqlite" };
const memoAblation = {
    name: "memo-ablation",
    reproduces: "Memo-SQL Table 5 (ablations, BIRD dev-new, Qwen3-Coder-30B): full, w/o schema linking, random decomposition, w/o ReAct+Reflect, single style, w/o refinement, ICL",
    description: "Memo-SQL Table 5: the memory built from the train split, then memo-sql and each ablation. The paper's Qwen3 'full' has no ICL (our --no-icl); its '+ICL' row is our default.",
    runs: {
        memory: { kind: "memo-build", options: {} },
        full: ev("memo-sql", MEMORY, { paper: paper(MEMO_T5, MEMO_MODEL, "+ ICL (our default has ICL)", { EX: 67.1 }) }),
        "no-icl": ev("memo-sql", { ...MEMORY, "no-icl": true }, { paper: paper(MEMO_T5, MEMO_MODEL, "Memo-SQL full (no ICL for Qwen3)", { EX: 68.5 }) }),
        "no-linking": ev("memo-sql", { ...MEMORY, "no-linking": true }, { paper: paper(MEMO_T5, MEMO_MODEL, "w/o schema linking", { EX: 67.7 }) }),
        "random-decomposition": ev("memo-sql", { ...MEMORY, decomposition: "random" }, { paper: paper(MEMO_T5, MEMO_MODEL, "random decomposition", { EX: 67.2 }) }),
        "no-react": ev("memo-sql", { ...MEMORY, "no-react": true }, { paper: paper(MEMO_T5, MEMO_MODEL, "w/o ReAct+Reflect", { EX: 67.3 }) }),
        "one-style": ev("memo-sql", { ...MEMORY, styles: 1 }, { paper: paper(MEMO_T5, MEMO_MODEL, "w/o multi-style (single syntactic form)", { EX: 67.6 }) }),
        "no-refine": ev("memo-sql", { ...MEMORY, "no-refine": true }, { paper: paper(MEMO_T5, MEMO_MODEL, "w/o SQL refinement", { EX: 66.4 }) }),
    },
};
const MEMO_T3 = "Memo-SQL Table 3, BIRD dev";
const MEMO_T3_MODEL = "Qwen3-Coder-30B (Table 3 names no model; its Memo-SQL row equals Table 5's Qwen3 full, 68.5)";
const CANDIDATES = { ...MEMORY, candidates: "{run:candidates}/candidates.json" };
const memoCorrection = {
    name: "memo-correction",
    reproduces: "Memo-SQL Table 3 (correction strategies on BIRD dev): memo-refine variants over the same nine candidates (--candidates)",
    description: "Memo-SQL Table 3: memo-sql's nine candidates written once (--no-refine, the baseline row), exported, then each correction variant on the same nine with memo-refine --candidates.",
    runs: {
        memory: { kind: "memo-build", options: {} },
        none: ev("memo-sql", { ...MEMORY, "no-refine": true }, { paper: paper(MEMO_T3, MEMO_T3_MODEL, "Baseline (no correction)", { EX: 66.4 }) }),
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
const TS_T4 = "TS-SQL Table 4, BIRD dev";
const TS_T5 = "TS-SQL Table 5, BIRD dev";
const TS_MODEL = "Gemini 1.5 Pro (generation, revision); coders Gemini 1.5 Pro, GPT-4o, Claude 3.5 Sonnet";
const smc = (s, m, c, all) => ({ Simple: s, Moderate: m, Challenging: c, EX: all });
const ZERO_SHOT = { link: true, "max-fix-rounds": 0 };
const tsSqlTable4 = {
    name: "ts-sql-table4",
    reproduces: "TS-SQL Table 4 (ablations, BIRD dev, Gemini 1.5 Pro): TS-SQL, w/o DG, w/o CI, w/o CG, w/o all",
    description: "TS-SQL Table 4: ts-sql and each agent removed; 'w/o all' is TS-SQL's own generator alone (linking, then zero-shot SQL).",
    runs: {
        "ts-sql": ev("ts-sql", {}, { paper: paper(TS_T4, TS_MODEL, "TS-SQL", smc(75.35, 64.73, 62.5, 70.93)) }),
        "no-dg": ev("ts-sql", { "no-data-agent": "schema" }, { paper: paper(TS_T4, TS_MODEL, "w/o DG", smc(65.51, 52.04, 52.78, 60.23)) }),
        "no-ci": ev("ts-sql", { "no-inspection": true }, { paper: paper(TS_T4, TS_MODEL, "w/o CI", smc(71.46, 58.49, 52.08, 65.71)) }),
        "no-cg": ev("ts-sql", { "no-test-code": true }, { paper: paper(TS_T4, TS_MODEL, "w/o CG", smc(31.46, 26.67, 25.69, 29.47)) }),
        "no-all": ev("baseline", ZERO_SHOT, { paper: paper(TS_T4, TS_MODEL, "w/o all", smc(63.68, 50.54, 47.22, 58.15)) }),
    },
};
const tsSqlTable5 = {
    name: "ts-sql-table5",
    reproduces: "TS-SQL Table 5 (BIRD dev): self-refinement methods on zero-shot SQL, and TS-SQL on DIN-SQL, MAC-SQL, CHESS, OpenSearch-v2 (their predictions via --set)",
    description: "TS-SQL Table 5: ts-sql-refine on zero-shot SQL (--correct all) beside the other self-refinement methods (DIN-SQL's and MAC-SQL's as their guidelines through magic's corrector: --set guideline-pourreza=FILE, --set guideline-wang=FILE), and on other systems' predictions files (--set din-sql=FILE, mac-sql=FILE, chess=FILE, opensearch-v2=FILE).",
    runs: {
        "zero-shot": ev("baseline", ZERO_SHOT, { paper: paper(TS_T5, "Gemini 1.5 Pro", "Gemini 1.5 Pro (zero-shot)", smc(63.68, 50.54, 47.22, 58.15)) }),
        "zero-shot.ts-sql": ev("ts-sql-refine", {}, { initial: "zero-shot", correct: "all", paper: paper(TS_T5, TS_MODEL, "+ TS-SQL", smc(75.35, 64.73, 62.5, 70.93)) }),
        // DIN-SQL's self-correction is a written guideline applied to every SQL, MAC-SQL's refiner a revision guideline:
        // magic's corrector with that guideline, as MAGIC's Table 1 runs them (the user gives the guideline's text).
        "zero-shot.din-sql": ev("magic", { guideline: "{set:guideline-pourreza}" }, { initial: "zero-shot", correct: "all", paper: paper(TS_T5, "Gemini 1.5 Pro", "+ DIN-SQL", smc(65.3, 52.69, 52.78, 60.3), "DIN-SQL's self-correction guideline file, applied by magic's corrector") }),
        "zero-shot.mac-sql": ev("magic", { guideline: "{set:guideline-wang}" }, { initial: "zero-shot", correct: "all", paper: paper(TS_T5, "Gemini 1.5 Pro", "+ MAC-SQL", smc(67.68, 56.56, 52.78, 62.91), "MAC-SQL's refiner guideline file, applied by magic's corrector (not MAC-SQL's own execute-and-refine loop)") }),
        "zero-shot.chess": given("zero-shot-chess", paper(TS_T5, "Gemini 1.5 Pro", "+ CHESS", smc(70.7, 56.99, 53.47, 64.93), "CHESS's revision of the zero-shot SQL, as a predictions file (CHESS is not in sqlmend)")),
        ...Object.fromEntries([["din-sql", "DIN-SQL", smc(67.14, 49.89, 45.14, 59.84), smc(75.57, 64.3, 65.28, 71.19)], ["mac-sql", "MAC-SQL", smc(69.19, 49.89, 51.39, 61.67), smc(75.14, 63.87, 63.89, 70.66)], ["chess", "CHESS IR+SS+CG", smc(70.92, 53.76, 53.47, 64.08), smc(75.89, 65.16, 63.89, 71.51)], ["opensearch-v2", "OpenSearch-v2", smc(74.05, 62.15, 61.11, 69.23), smc(75.89, 64.09, 64.58, 71.25)]].map(([key, name, alone, fixed]) => [
            `${key}.ts-sql`,
            ev("ts-sql-refine", {}, {
                initial: `{set:${key}}`,
                correct: "all",
                paper: paper(TS_T5, TS_MODEL, `${name} + TS-SQL`, { ...fixed, [`${name} alone EX`]: alone.EX }, `${name}'s predictions file`),
            }),
        ])),
    },
};
const PAPER_RECIPES = Object.fromEntries([magicTable1, magicTable2, magicGuideline, r3Table3, memoAblation, memoCorrection, tsSqlTable4, tsSqlTable5].map((r) => [r.name, r]));
export const CORRECTORS = ["magic", "r3-review", "memo-refine", "ts-sql-refine", "repair"];
export const ALL_SCENARIOS = ["all", "errors", "incorrect"];
/** Built-in recipes, by name. */
export const BUILT_IN_RECIPES = {
    correctors: {
        name: "correctors",
        reproduces: "every corrector × MAGIC's three correction scenarios on one initial SQL (baseline's); no paper figures (no paper ran them all)",
        description: "every corrector on the same initial SQL (baseline's) under MAGIC's three scenarios (Table 1); MAGIC's guideline learnt on the train split",
        runs: {
            initial: { kind: "eval", graph: "baseline", options: {} },
            guideline: { kind: "magic-guideline", options: {} },
            ...Object.fromEntries(CORRECTORS.flatMap((graph) => ALL_SCENARIOS.map((scenario) => [
                `${graph}.${scenario}`,
                { kind: "eval", graph, initial: "initial", correct: scenario, options: graph === "magic" ? { guideline: "{run:guideline}/guideline.md" } : {} },
            ]))),
        },
    },
    ...PAPER_RECIPES,
};
