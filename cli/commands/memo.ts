import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";

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

/** `sqlmend memo`: each subcommand's flags, then its body in `runner/methods/memo-memory.ts` (loaded when one runs, not for --help). */
export const memoCommand: Command = {
  name: "memo",
  usage: USAGE,
  async run(argv, io) {
    const [sub, ...rest] = argv;
    if (!SUBCOMMANDS.includes(sub as (typeof SUBCOMMANDS)[number])) {
      throw new UsageError(sub ? `unknown memo command '${sub}' (build, add, show, search, candidates)` : "name a memo command: build, add, show, search or candidates");
    }
    const memory = await import("../../runner/methods/memo-memory.ts");
    switch (sub as (typeof SUBCOMMANDS)[number]) {
      case "build":
        return (await memory.memoBuild({ ...parseFlags(rest, memory.memoBuildFlags), argv: rest }, io)).exitCode;
      case "add":
        return memory.memoAdd({ ...parseFlags(rest, memory.memoAddFlags), argv: rest }, io);
      case "show":
        return memory.memoShow({ ...parseFlags(rest, memory.memoShowFlags), argv: rest }, io);
      case "search":
        return memory.memoSearch({ ...parseFlags(rest, memory.memoSearchFlags), argv: rest }, io);
      case "candidates":
        return (await memory.memoCandidates({ ...parseFlags(rest, memory.memoCandidatesFlags), argv: rest }, io)).exitCode;
    }
  },
};
