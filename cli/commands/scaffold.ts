import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { CHECK_CONFIG, NEW_CONFIG } from "../../runner/lab/lab-config.ts";
import { EXIT } from "../../core/exit.ts";

const scaffold = () => import("../../runner/lab/scaffold.ts");

export const newCommand: Command = {
  name: "new",
  usage: `Usage: sqlmend new node --graph GRAPH --slot SLOT FILE
       sqlmend new graph FILE [--name NAME]

  new node    a replacement for one slot of a built-in graph: its contract (reads, writes, routes, role) as a
              comment and as the factory type, a body that runs the slot's default node (a working start)
  new graph   a method in one file (defineGraph): the shared slots plus one of its own, an option, steps() and calls()
  Both add package.json and tsconfig.json when the folder has none (an editor then checks the types), and never
  overwrite a file. Then: sqlmend check FILE.

${usageOf(NEW_CONFIG, undefined, 18)}`,
  async run(argv, io) {
    const parsed = parseFlags(argv, flagTableOf(NEW_CONFIG));
    const { positionals } = parsed;
    const values = configFromFlags(NEW_CONFIG, parsed.values);
    const [kind, file, ...rest] = positionals;
    if (rest.length) throw new UsageError(`unexpected argument '${rest[0]}'`);
    if (!file) throw new UsageError("name the file to write: sqlmend new node --graph GRAPH --slot SLOT FILE, or sqlmend new graph FILE");
    const { newGraph, newNode } = await scaffold();
    let written: string[];
    if (kind === "node") {
      if (!values.graph || !values.slot) throw new UsageError("new node needs --graph GRAPH and --slot SLOT (sqlmend graphs --slots lists them)");
      ({ written } = newNode({ graph: values.graph, slot: values.slot, file, cwd: io.cwd }));
    } else if (kind === "graph") {
      ({ written } = newGraph({ file, cwd: io.cwd, ...(values.name ? { name: values.name } : {}) }));
    } else throw new UsageError(`sqlmend new takes node or graph, not '${kind ?? ""}'`);
    io.stdout(`wrote ${written.join(", ")}\nnext: sqlmend check ${file}\n`);
    return EXIT.ok;
  },
};

export const checkCommand: Command = {
  name: "check",
  usage: `Usage: sqlmend check FILE [--graph GRAPH --slot SLOT]

  Type-checks a node module against its slot's factory type (the slot 'sqlmend new node' wrote in the file, or
  --graph/--slot), or a graph module made with defineGraph, as 'tsc --strict' would. Exit 0 when it compiles, 1 with
  TypeScript's errors a line each. Needs the typescript package (sqlmend's own in a clone).

${usageOf(CHECK_CONFIG, undefined, 18)}`,
  async run(argv, io) {
    const parsed = parseFlags(argv, flagTableOf(CHECK_CONFIG));
    const { positionals } = parsed;
    const values = configFromFlags(CHECK_CONFIG, parsed.values);
    const file = positionals[0];
    if (!file) throw new UsageError("name the module to check");
    const result = await (await scaffold()).checkModule({ file, cwd: io.cwd, ...(values.graph ? { graph: values.graph } : {}), ...(values.slot ? { slot: values.slot } : {}) });
    if (result.ok) {
      io.stdout(`${file}: compiles as ${result.as}\n`);
      return EXIT.ok;
    }
    io.stderr(`${result.errors.join("\n")}\n${file}: ${result.errors.length} type error${result.errors.length === 1 ? "" : "s"} as ${result.as}\n`);
    return EXIT.error;
  },
};
