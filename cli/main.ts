import { availableParallelism } from "node:os";
import { parseArgs, type ParseArgsConfig } from "node:util";
import { type CliIO, defaultIO, firstLineOf, UsageError, UserError } from "./command.ts";
import { commands } from "./commands/index.ts";

/** parseArgs with flag errors turned into UsageError. */
export function parseFlags<T extends NonNullable<ParseArgsConfig["options"]>>(argv: string[], options: T) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
  } catch (error) {
    // "--k -1": node's first line ("argument is ambiguous") hides its own advice, on a later line.
    const ambiguous = /^Option '(--[^']+)' argument is ambiguous/.exec(firstLineOf(error));
    if (ambiguous) throw new UsageError(`${ambiguous[1]} needs a value; one that starts with '-' is written ${ambiguous[1]}=VALUE (e.g. ${ambiguous[1]}=-1)`);
    throw new UsageError(firstLineOf(error));
  }
}

function helpText(): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return `sqlmend: LLM self-correction methods for text-to-SQL\n\nUsage: sqlmend <command> [options]\n\nCommands:\n${lines.join("\n")}\n\nRun 'sqlmend <command> --help' for a command's options.\n`;
}

export async function main(argv: string[], io: CliIO = defaultIO()): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "help" || name === "--help" || name === "-h") {
    io.stdout(helpText());
    return name ? 0 : 2;
  }
  const entry = commands.find((c) => c.name === name);
  if (!entry) {
    io.stderr(`sqlmend: unknown command '${name}'. Run 'sqlmend help' for the list.\n`);
    return 2;
  }
  const wantsHelp = rest.includes("--help") || rest.includes("-h");
  if (entry.sqlWorkers !== undefined && !wantsHelp) {
    const { prestartWorkers } = await import("../tools/sqlite/executor.ts");
    prestartWorkers(entry.sqlWorkers === "cpus" ? availableParallelism() : entry.sqlWorkers);
  }
  const command = await entry.load();
  if (wantsHelp) {
    io.stdout(`${command.usage}${command.helpFor?.(rest) ?? ""}\n`);
    return 0;
  }
  try {
    return await command.run(rest, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr(`sqlmend ${command.name}: ${firstLineOf(error)}\n${command.usage}\n`);
      return error.exitCode;
    }
    if (error instanceof UserError) {
      io.stderr(`sqlmend ${command.name}: ${firstLineOf(error)}\n`);
      return error.exitCode;
    }
    io.stderr(`sqlmend ${command.name}: ${firstLineOf(error)}\n`);
    if (io.env.SQLMEND_DEBUG) io.stderr(`${error instanceof Error ? error.stack : ""}\n`);
    return 1;
  }
}
