import type { Command } from "../shared/command.ts";
import { UserError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { INSPECT_CONFIG, THREADS_CONFIG } from "../../runner/trace/inspect-config.ts";
import { EXIT } from "../../core/exit.ts";

// The trace API (checkpoint store, LangGraph) loads when a command runs, not for its --help.
const inspectApi = () => import("../../runner/trace/inspect.ts");

export const threadsCommand: Command = {
  name: "threads",
  usage: `Usage: sqlmend threads [--prefix TEXT] [--limit N] [--checkpoints FILE] [--json]
       sqlmend threads --run DIR [--verdict right|wrong|failed|skipped|unscored] [--outcome KEY=VALUE]... [--json]

${usageOf(THREADS_CONFIG, undefined, 23)}`,
  async run(argv, io) {
    const config = configFromFlags(THREADS_CONFIG, parseFlags(argv, flagTableOf(THREADS_CONFIG)).values);
    const { listThreadLines, renderThreadLines } = await inspectApi();
    const { lines, location } = await listThreadLines({ ...config, env: io.env, cwd: io.cwd });
    io.stdout(config.json ? `${JSON.stringify(lines, null, 2)}\n` : renderThreadLines(lines, location));
    return EXIT.ok;
  },
};

export const inspectCommand: Command = {
  name: "inspect",
  usage: `Usage: sqlmend inspect THREAD [--step N] [--state] [--diff] [--gold] [--run DIR] [--json] [--checkpoints FILE] [--graph NAME|FILE]

  without --step         the final state and one line per step (which node ran, what it changed, its model calls),
                         and the error (slot, class, message, stack) of a node that threw
${usageOf(INSPECT_CONFIG, undefined, 25)}`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, flagTableOf(INSPECT_CONFIG));
    const threadId = positionals[0];
    if (!threadId) throw new UserError("name a thread (see 'sqlmend threads')");
    const { inspectThread } = await inspectApi();
    io.stdout(await inspectThread({ ...configFromFlags(INSPECT_CONFIG, values), threadId, env: io.env, cwd: io.cwd }));
    return EXIT.ok;
  },
};
