import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf } from "../shared/flag-config.ts";
import type { CliIO } from "../../core/io.ts";
import type { MemoAddResult } from "../../runner/methods/memo/memo-add.ts";
import type { MemoShowResult } from "../../runner/methods/memo/memo-show.ts";
import type { MemoSearchResult } from "../../runner/methods/memo/memo-search.ts";

const USAGE = `Usage: sqlmend memo build --bench DIR|minibench --out FILE [--split train] [--limit N] [--ids A,B] [--concurrency K]
                          [--elicit sampling|pipeline] [--samples N] [--sample-temperature T] [--resume]
                          [--semantics bird|spider] [model flags]
                          (or --questions FILE [--db-dir DIR] in place of/with --bench: another question file)
       sqlmend memo add --memory FILE --db DB --question Q --wrong SQL --correct SQL [--evidence E] [model flags]
       sqlmend memo show FILE [--entries N] [--json]
       sqlmend memo candidates --run DIR --out FILE [--checkpoints FILE]
       sqlmend memo search FILE "QUESTION" --sql SQL [--retrieval filtered|top4|random] [--exclude-id ID] [--json]
                          [--config FILE] [--embedding-model NAME] [--embedding-base-url URL]

Memo-SQL's error-correction memory: entries <question, gold SQL, wrong SQL, error types, suggestions> in a SQLite file.

build   per training question: elicit candidates — sampling: --samples requests (role 'sampler', default 4, at
        --sample-temperature, default 0.8, each asked from another angle); pipeline: memo-sql's nine candidates,
        uncorrected (~30 calls a question) — execute them against the gold, keep one that executes but is wrong,
        have role 'labeler' classify it (nine error types) and suggest fixes. Resumable (--resume) after a kill.
add     label and store one correction (user feedback); the very next question can retrieve it.
show    counts and the histogram of error types.
candidates  each question's candidates as written, from a memo-sql eval (DIR) and its checkpoints, for
        memo-refine --candidates FILE: Table 3's variants then correct the same nine candidates.
search  what retrieval returns for a question and SQL: the top 40 by similarity, and what the subsumption filter keeps.

Retrieval ranks by embeddings of question + skeleton when an embedding model is configured (--embedding-model, or
SQLMEND_EMBEDDING_MODEL, or the config file), as memo-sql does; otherwise lexically (BM25). build and add embed the
new entries' keys into the memory file; search and show say which ranking applies.

Model flags: --model --base-url --config --role-model ROLE=NAME --temperature --seed --request-timeout-ms --max-retries
             --max-requests --stream --structured-method --embedding-model --embedding-base-url
             --mock-error-rate (as for 'sqlmend eval'; --model mock: the built-in mock model)`;

const SUBCOMMANDS = ["build", "add", "show", "search", "candidates"] as const;

/** `sqlmend memo`: each subcommand's flags, then its body in `runner/methods/memo/` (loaded when one runs, not for --help). */
export const memoCommand: Command = {
  name: "memo",
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (!SUBCOMMANDS.includes(sub as (typeof SUBCOMMANDS)[number])) {
      throw new UsageError(sub ? `unknown memo command '${sub}' (build, add, show, search, candidates)` : "name a memo command: build, add, show, search or candidates");
    }
    const [{ MEMO_MODEL_CONFIG }, { memoModelsOf }] = await Promise.all([import("../../runner/methods/memo/memo-model-config.ts"), import("../../runner/methods/memo/memo-models.ts")]);
    const modelFlags = flagTableOf(MEMO_MODEL_CONFIG);
    const modelsOf = (values: Parameters<typeof configFromFlags>[1]) => memoModelsOf(configFromFlags(MEMO_MODEL_CONFIG, values), io);
    switch (sub as (typeof SUBCOMMANDS)[number]) {
      case "build": {
        const [{ buildMemoryFile }, { MEMORY_BUILD_CONFIG }] = await Promise.all([import("../../runner/methods/memo/build-memory.ts"), import("../../runner/methods/memo/memory-build-config.ts")]);
        const { values, positionals } = parseFlags(rest, flagTableOf(MEMORY_BUILD_CONFIG));
        if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
        return (await buildMemoryFile(configFromFlags(MEMORY_BUILD_CONFIG, values), io)).exitCode;
      }
      case "add": {
        const { MEMO_ADD_CONFIG, addCorrection } = await import("../../runner/methods/memo/memo-add.ts");
        const { values, positionals } = parseFlags(rest, { ...flagTableOf(MEMO_ADD_CONFIG), ...modelFlags });
        if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
        printAdded(await addCorrection(configFromFlags(MEMO_ADD_CONFIG, values), modelsOf(values), io), io);
        return 0;
      }
      case "show": {
        const [{ MEMO_SHOW_CONFIG, showMemory }, { errorTypeHistogram }] = await Promise.all([import("../../runner/methods/memo/memo-show.ts"), import("../../runner/methods/memo/error-type-histogram.ts")]);
        // The memory file is the argument: `memo show FILE`.
        const { memory: _file, ...flagged } = MEMO_SHOW_CONFIG;
        const { values, positionals } = parseFlags(rest, { ...flagTableOf(flagged), ...modelFlags, json: { type: "boolean" } });
        if (positionals.length !== 1) throw new UsageError("name one memory file");
        const shown = await showMemory({ ...configFromFlags(flagged, values), memory: positionals[0] }, modelsOf(values), io);
        io.stdout(values.json ? `${JSON.stringify(showJson(shown), null, 2)}\n` : showText(shown, errorTypeHistogram));
        return 0;
      }
      case "search": {
        const { MEMO_SEARCH_CONFIG, searchMemory } = await import("../../runner/methods/memo/memo-search.ts");
        // The memory file and the question are the arguments: `memo search FILE "QUESTION"`.
        const { memory: _file, question: _question, ...flagged } = MEMO_SEARCH_CONFIG;
        const { values, positionals } = parseFlags(rest, { ...flagTableOf(flagged), ...modelFlags, json: { type: "boolean" } });
        if (positionals.length !== 2) throw new UsageError('usage: sqlmend memo search FILE "QUESTION" --sql SQL');
        const found = await searchMemory({ ...configFromFlags(flagged, values), memory: positionals[0], question: positionals[1] }, modelsOf(values), io);
        const { embeddingModel: _model, ...json } = found;
        io.stdout(values.json ? `${JSON.stringify(json, null, 2)}\n` : searchText(found));
        return 0;
      }
      case "candidates": {
        const [{ candidatesFile }, { CANDIDATES_CONFIG }] = await Promise.all([import("../../runner/methods/memo/write-candidates.ts"), import("../../runner/methods/memo/candidates-config.ts")]);
        const { values, positionals } = parseFlags(rest, flagTableOf(CANDIDATES_CONFIG));
        if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
        return (await candidatesFile(configFromFlags(CANDIDATES_CONFIG, values), io)).exitCode;
      }
    }
  },
};

function printAdded(added: MemoAddResult, io: CliIO): void {
  if (added.sameResult) io.stderr("note: both queries return the same result on this database; stored anyway\n");
  io.stdout(`Added entry #${added.entry.id} (${added.entry.errorTypes.join(", ")})\nSuggestions: ${added.entry.suggestions}\nMemory: ${added.entries} entries\n${added.rankingLine}\n`);
}

/** `memo show --json`: the memory's identity, counts, key vectors, ranking and latest entries. */
function showJson(shown: MemoShowResult) {
  const { embeddingModel: _model, embeddedKeys: _keys, ...json } = shown;
  return json;
}

function showText(s: MemoShowResult, errorTypeHistogram: (counts: Record<string, number>) => string): string {
  const ranking = s.embeddingModel ? `embeddings (${s.embeddingModel}; ${s.embeddedKeys} of ${s.entries} keys embedded, the rest at the first retrieval)` : "lexical (no embedding model configured)";
  return (
    `Memory: ${s.file}\nEntries: ${s.entries}\nBuilt from: ${s.build ? `${s.build.bench} (${s.build.split})` : "-"}; sha256 ${s.sha256}\nQuestions done by builds: ${Object.entries(s.done).map(([k, v]) => `${k} ${v}`).join(", ") || "-"}\n` +
    `Key vectors: ${Object.entries(s.vectors).map(([model, n]) => `${n} by ${model}`).join(", ") || "none"}\nRanking: ${ranking}\n` +
    `Error types:\n${errorTypeHistogram(s.histogram)}\n` +
    (s.recent.length ? `\nLatest ${s.recent.length}:\n${s.recent.map((e) => `#${e.id} [${e.sourceId}] ${e.question}\n  wrong: ${e.wrongSql}\n  types: ${e.errorTypes.join(", ")}`).join("\n")}\n` : "")
  );
}

function searchText(r: MemoSearchResult): string {
  const how = r.ranking === "embeddings" ? `embeddings (${r.embeddingModel})` : r.ranking === "lexical" ? `lexical (${r.note?.replace(/; ranked lexically$/, "") ?? "no embedding model configured"})` : r.ranking;
  const requests = r.records.length ? `; ${r.records.length} embedding request${r.records.length === 1 ? "" : "s"}` : "";
  const lines = r.ranked.map((x, i) => {
    const fate = x.kept ? "KEPT" : `dropped (types within #${x.subsumedBy})`;
    return `${String(i + 1).padStart(3)}. ${x.score.toFixed(3).padStart(8)}  #${x.entry.id} ${fate}  [${x.entry.errorTypes.join(", ")}]  ${x.entry.question}\n`;
  });
  return `Key: ${r.key.question} | ${r.key.skeleton}\nRanking: ${how}; mode ${r.mode}; ${r.ranked.length} ranked, ${r.entries.length} kept (${r.ms.toFixed(1)} ms${requests})\n\n${lines.join("")}`;
}
