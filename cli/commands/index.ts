import type { Command } from "../shared/command.ts";
import { SQL_WORKERS } from "./sql-workers.ts";

export interface CommandEntry {
  name: string;
  /** One line for `sqlmend help`. */
  summary: string;
  /** Loaded on use, so `sqlmend exec` does not pay for LangChain's start-up. */
  load: () => Promise<Command>;
  /** SQL worker processes the command will want: the launcher starts them while the command's modules load. */
  sqlWorkers?: number | "cpus";
}

/** Every launcher command, in the order `sqlmend help` lists them. */
export const commands: CommandEntry[] = [
  { name: "graphs", summary: "list the graphs, a line each (with their node slots)", load: async () => (await import("./graphs.ts")).graphsCommand },
  { name: "ask", summary: "answer one question on a SQLite database with a graph", load: async () => (await import("./ask.ts")).askCommand },
  { name: "eval", summary: "run a graph over a benchmark split, score it, write predictions and report.md", load: async () => (await import("./eval.ts")).evalCommand },
  {
    name: "compare",
    summary: "compare eval runs: EX, per difficulty, questions flipped, McNemar tests (Holm), cost, --html",
    load: async () => (await import("./compare.ts")).compareCommand,
  },
  {
    name: "replay",
    summary: "counterfactual runs: fork an eval run's recorded threads before a slot and run the rest with swapped nodes",
    load: async () => (await import("./replay.ts")).replayCommand,
  },
  {
    name: "experiment",
    summary: "run a recipe of eval runs (shared initial SQL, correctors × scenarios) into one folder and one table",
    load: async () => (await import("./experiment.ts")).experimentCommand,
  },
  {
    name: "merge",
    summary: "join the output folders of 'eval --shard I/N' into one run (results, predictions, report)",
    load: async () => (await import("./merge.ts")).mergeCommand,
  },
  {
    name: "magic",
    summary: "MAGIC: write a self-correction guideline from a method's training failures (magic guideline)",
    load: async () => (await import("./magic.ts")).magicCommand,
  },
  { name: "new", summary: "write a typed start for a node of your own (new node --graph G --slot S FILE) or a method (new graph FILE)", load: async () => (await import("./scaffold.ts")).newCommand },
  { name: "check", summary: "type-check a node module against its slot, or a graph module, as tsc --strict would", load: async () => (await import("./scaffold.ts")).checkCommand },
  { name: "serve", summary: "a LangGraph server serving the built-in graphs and your --graph modules (eval --server runs on it)", load: async () => (await import("./serve.ts")).serveCommand },
  { name: "threads", summary: "list checkpointed threads, newest first", load: async () => (await import("./threads.ts")).threadsCommand },
  {
    name: "inspect",
    summary: "show a thread's final state and its history step by step (nodes, changes, prompts and replies)",
    load: async () => (await import("./threads.ts")).inspectCommand,
  },
  {
    name: "view",
    summary: "a local read-only web app over runs: questions filtered, each question's steps and SQL diff, runs compared; --export FILE.html",
    load: async () => (await import("./view.ts")).viewCommand,
  },
  {
    name: "link",
    summary: "show what schema and value linking finds for a question: keywords, columns, stored values",
    load: async () => (await import("./link.ts")).linkCommand,
  },
  {
    name: "exec",
    summary: "run one read-only SQL statement against a SQLite file and print the result",
    load: async () => (await import("./exec.ts")).execCommand,
    sqlWorkers: SQL_WORKERS.exec,
  },
  {
    name: "ts-sql",
    summary: "TS-SQL tools: 'audit' runs each gold SQL against its own TS-SQL test case (RQ0)",
    load: async () => (await import("./ts-sql.ts")).tsSqlCommand,
  },
  {
    name: "score",
    summary: "score predicted SQL against a benchmark's gold SQL (execution accuracy, VES)",
    load: async () => (await import("./score.ts")).scoreCommand,
    sqlWorkers: SQL_WORKERS.score,
  },
  {
    name: "bench",
    summary: "bench info: what a benchmark folder (or your own question file) holds: splits, questions, databases",
    load: async () => (await import("./bench.ts")).benchCommand,
  },
  {
    name: "memo",
    summary: "Memo-SQL's error-correction memory: build it from a training split, add a correction, show, search",
    load: async () => (await import("./memo.ts")).memoCommand,
  },
  {
    name: "cache",
    summary: "the response and vector caches: what they hold per model (info), and removing part or all of it (clear)",
    load: async () => (await import("./cache.ts")).cacheCommand,
  },
];
