import type { Command } from "../shared/command.ts";
import { UserError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { intFlag } from "../../runner/run/api-options.ts";
import { EXIT } from "../../core/exit.ts";

// The trace API (checkpoint store, LangGraph) loads when a command runs, not for its --help.
const inspectApi = () => import("../../runner/trace/inspect.ts");

export const threadsCommand: Command = {
  name: "threads",
  usage: `Usage: sqlmend threads [--prefix TEXT] [--limit N] [--checkpoints FILE] [--json]
       sqlmend threads --run DIR [--verdict right|wrong|failed|skipped|unscored] [--outcome KEY=VALUE]... [--json]

  --run DIR            the threads of a run folder's questions (from its results.jsonl; no checkpoint is opened)
  --verdict V          only questions with this verdict (repeatable, or comma-separated); needs --run
  --outcome KEY=VALUE  only questions whose outcome has KEY equal to VALUE (repeatable: all must hold); needs --run`,
  async run(argv, io) {
    const { values } = parseFlags(argv, {
      prefix: { type: "string" },
      limit: { type: "string" },
      checkpoints: { type: "string" },
      json: { type: "boolean" },
      run: { type: "string" },
      verdict: { type: "string", multiple: true },
      outcome: { type: "string", multiple: true },
    });
    const { listThreadLines, renderThreadLines } = await inspectApi();
    const limit = intFlag(values, "limit", 1);
    const { lines, location } = await listThreadLines({
      ...(values.prefix !== undefined ? { prefix: values.prefix } : {}),
      ...(limit !== undefined ? { limit } : {}),
      ...(values.checkpoints !== undefined ? { checkpoints: values.checkpoints } : {}),
      ...(values.run !== undefined ? { run: values.run } : {}),
      ...(values.verdict ? { verdict: values.verdict } : {}),
      ...(values.outcome ? { outcome: values.outcome } : {}),
      env: io.env,
      cwd: io.cwd,
    });
    io.stdout(values.json ? `${JSON.stringify(lines, null, 2)}\n` : renderThreadLines(lines, location));
    return EXIT.ok;
  },
};

export const inspectCommand: Command = {
  name: "inspect",
  usage: `Usage: sqlmend inspect THREAD [--step N] [--state] [--diff] [--gold] [--run DIR] [--json] [--checkpoints FILE] [--graph NAME|FILE]

  without --step   the final state and one line per step (which node ran, what it changed, its model calls),
                   and the error (slot, class, message, stack) of a node that threw
  --step N         step N in full: every field the node wrote, what changed, each model call's prompt and reply
  --state          the full state (of step N with --step, else the final state)
  --diff           each step's changes from the state before it, field by field
  --gold           the gold's verdict on each step that changed the SQL: first right, broke, fixed, last (needs --run)
  --run DIR        the run folder the thread belongs to: its graph module, checkpoints and benchmark
  --graph NAME|FILE  the graph that ran the thread, when its state or run does not say (a built-in's name or a
                   --graph module); without any, the steps are read from the checkpoints alone`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, {
      step: { type: "string" },
      json: { type: "boolean" },
      checkpoints: { type: "string" },
      graph: { type: "string" },
      run: { type: "string" },
      state: { type: "boolean" },
      diff: { type: "boolean" },
      gold: { type: "boolean" },
    });
    const threadId = positionals[0];
    if (!threadId) throw new UserError("name a thread (see 'sqlmend threads')");
    const step = intFlag(values, "step", 1);
    const { inspectThread } = await inspectApi();
    io.stdout(
      await inspectThread({
        threadId,
        ...(step !== undefined ? { step } : {}),
        ...(values.checkpoints !== undefined ? { checkpoints: values.checkpoints } : {}),
        ...(values.graph !== undefined ? { graph: values.graph } : {}),
        ...(values.run !== undefined ? { run: values.run } : {}),
        state: values.state ?? false,
        diff: values.diff ?? false,
        gold: values.gold ?? false,
        json: values.json ?? false,
        env: io.env,
        cwd: io.cwd,
      }),
    );
    return EXIT.ok;
  },
};
