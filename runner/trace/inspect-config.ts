import { defineConfig } from "../../core/config.ts";

// `inspect`'s and `threads`' options, declared once, in a module of their own: the launcher reads them for its flags
// and --help without loading the trace API (the checkpoint store, LangGraph).

/** `inspect`'s options, declared once: the launcher's flags and a script's arguments. */
export const INSPECT_CONFIG = defineConfig({
  step: { type: "int", min: 1, metavar: "N", help: "step N in full: every field the node wrote, what changed, each model call's prompt and reply" },
  state: { type: "boolean", help: "the full state (of step N with --step, else the final state)" },
  diff: { type: "boolean", help: "each step's changes from the state before it, field by field" },
  gold: { type: "boolean", help: "the gold's verdict on each step that changed the SQL: first right, broke, fixed, last (needs --run)" },
  run: { type: "string", metavar: "DIR", help: "the run folder the thread belongs to: its graph module, checkpoints and benchmark" },
  json: { type: "boolean", help: "JSON instead of text" },
  checkpoints: { type: "string", metavar: "FILE", help: "the checkpoint store (default: the run's, else the data directory's)" },
  graph: { type: "string", metavar: "NAME|FILE", help: "the graph that ran the thread, when its state or run does not say" },
});

/** `threads`' options, declared once. */
export const THREADS_CONFIG = defineConfig({
  prefix: { type: "string", metavar: "TEXT", help: "only threads whose id starts with TEXT" },
  limit: { type: "int", min: 1, metavar: "N", help: "at most N threads" },
  checkpoints: { type: "string", metavar: "FILE", help: "the checkpoint store (default: the data directory's)" },
  run: { type: "string", metavar: "DIR", help: "the threads of a run folder's questions (from its results.jsonl; no checkpoint is opened)" },
  verdict: { type: "list", metavar: "V", help: "only questions with this verdict (repeatable, or comma-separated); needs --run" },
  outcome: { type: "strings", metavar: "KEY=VALUE", help: "only questions whose outcome has KEY equal to VALUE (repeatable: all must hold); needs --run" },
  json: { type: "boolean", help: "JSON instead of text" },
});
