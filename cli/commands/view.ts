import { type Command, UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { VIEW_CONFIG } from "../../runner/view/view-config.ts";
import { EXIT, STOP_SIGNALS, type StopSignal } from "../../core/exit.ts";

const usage = `Usage: sqlmend view RUN_DIR [RUN_DIR ...] [--host H] [--port N] [--checkpoints LOCATION]
       sqlmend view RUN_DIR [RUN_DIR ...] --export FILE.html [--max-questions N]

A local, read-only web app over eval run folders and experiment folders: a run page (EX with its
interval, per difficulty and database, a question table filtered by verdict, difficulty, database,
outcome field and text, sorted by cost, latency and rounds), a page per question (gold / initial /
final SQL as a diff, their results side by side, every step of its thread with prompts, replies,
state diffs and errors, the 'sqlmend replay' command from each step), a compare page for two or more
runs of the same questions (fixed, broken, both wrong, both right), an experiment's table.

Options:
${usageOf(VIEW_CONFIG, undefined, 23)}

Runs are only read; databases are opened read-only. Ctrl-C stops the server.`;

export const viewCommand: Command = {
  name: "view",
  usage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, flagTableOf(VIEW_CONFIG));
    const config = configFromFlags(VIEW_CONFIG, values);
    const store = config.checkpoints ? { checkpoints: config.checkpoints } : {};
    if (!positionals.length) throw new UsageError("name one or more run folders (or experiment folders) to view");
    const { exportView, startView } = await import("../../runner/view/server.ts");
    if (config.export !== undefined) {
      if (config.host !== undefined || config.port !== undefined) throw new UsageError("--export writes a file: --host and --port are for the server");
      const result = await exportView({ runs: positionals, out: config.export, maxQuestions: config.maxQuestions ?? 100, cwd: io.cwd, io, ...store });
      io.stdout(`sqlmend view: wrote ${result.file} (${(result.bytes / 1024).toFixed(0)} KiB)\n`);
      for (const line of result.leftOut) io.stderr(`sqlmend view: left out: ${line}\n`);
      return EXIT.ok;
    }
    if (config.maxQuestions !== undefined) throw new UsageError("--max-questions bounds --export");
    const server = await startView({ runs: positionals, host: config.host ?? "127.0.0.1", port: config.port ?? 8737, cwd: io.cwd, env: io.env, ...store });
    io.stdout(`sqlmend view: ${server.sources.runs.length} run(s)${server.sources.experiments.length ? `, ${server.sources.experiments.length} experiment(s)` : ""} at ${server.url} (Ctrl-C stops)\n`);
    const signals = Object.keys(STOP_SIGNALS) as StopSignal[];
    let stop = (_s: StopSignal) => {};
    const signal = await new Promise<StopSignal>((resolve) => {
      stop = resolve;
      for (const s of signals) process.on(s, stop);
    });
    for (const s of signals) process.off(s, stop);
    await server.close();
    return signal === "SIGINT" ? EXIT.ok : STOP_SIGNALS[signal];
  },
};
