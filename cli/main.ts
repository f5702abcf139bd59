import { defaultMaxListeners, setMaxListeners } from "node:events";
import { availableParallelism } from "node:os";
import { type CliIO, defaultIO, firstLineOf, maskSecrets, UsageError, UserError } from "./shared/command.ts";
import { flagWordingOf } from "../core/config.ts";
import { commands } from "./commands/index.ts";
import { closeAll } from "../core/closers.ts";
import { EXIT } from "../core/exit.ts";

function helpText(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `sqlmend: LLM self-correction methods for text-to-SQL\n\nUsage: sqlmend <command> [options]\n\nCommands:\n${lines.join("\n")}\n\nRun 'sqlmend <command> --help' for a command's options.\n`;
}

/** A usage text's synopsis: its lines up to the first blank one (`Usage: sqlmend eval GRAPH ...`). */
export const synopsisOf = (usage: string): string => usage.split(/\n\s*\n/)[0]!;

export async function main(argv: string[], given: CliIO = defaultIO()): Promise<number> {
  // The launcher is its own host: a question's parallel model calls (a fan-out, several questions at once) each listen
  // on its run's abort signal through the OpenAI client, past Node's 10. The library itself never changes its host.
  setMaxListeners(Math.max(defaultMaxListeners, 100));
  // Nothing a command prints shows a password given in a URL (errors, hints, progress, echoed flags).
  const io: CliIO = { ...given, stdout: (text) => given.stdout(maskSecrets(text)), stderr: (text) => given.stderr(maskSecrets(text)) };
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    io.stdout(helpText());
    return name ? EXIT.ok : EXIT.usage;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.stderr(`sqlmend: unknown command '${name}'. Run 'sqlmend help' for the list.\n`);
    return EXIT.usage;
  }
  const wantsHelp = rest.includes("--help") || rest.includes("-h");
  if (entry.sqlWorkers !== undefined && !wantsHelp) {
    const { prestartWorkers } = await import("../tools/sqlite/executor.ts");
    prestartWorkers(entry.sqlWorkers === "cpus" ? availableParallelism() : entry.sqlWorkers);
  }
  const command = await entry.load();
  if (wantsHelp) {
    try {
      io.stdout(`${command.usage}${(await command.helpFor?.(rest, io)) ?? ""}\n`);
    } catch (error) {
      // A --node or --graph module that does not load: its options cannot be listed.
      io.stderr(`sqlmend ${command.name}: ${firstLineOf(error)}\n`);
      return EXIT.error;
    }
    return EXIT.ok;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    // The runner names options by key (core/config.ts `optionUsageError`); the launcher's user typed flags.
    const flagWording = flagWordingOf(error);
    if (flagWording !== undefined && error instanceof Error) error.message = flagWording;
    if (error instanceof UsageError) {
      // The error, the command's synopsis, and where the rest is: not pages of options after the one useful line.
      io.stderr(`sqlmend ${command.name}: ${firstLineOf(error)}\n${synopsisOf(command.usage)}\nRun 'sqlmend ${command.name} --help' for every option.\n`);
      return error.exitCode;
    }
    if (error instanceof UserError) {
      io.stderr(`sqlmend ${command.name}: ${firstLineOf(error)}\n`);
      return error.exitCode;
    }
    io.stderr(`sqlmend ${command.name}: ${firstLineOf(error)}\n`);
    if (io.env.SQLMEND_DEBUG) io.stderr(`${error instanceof Error ? error.stack : ""}\n`);
    return EXIT.error;
  } finally {
    // Connections the command left open (a shared response cache in Redis) would keep the process alive.
    closeAll();
  }
}
