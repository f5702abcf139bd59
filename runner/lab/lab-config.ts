import { defineConfig } from "../../core/config.ts";

// The strategy lab's commands' options, declared once in a light module: the launcher's flags, their checks and
// --help lines (`graphs`, `new`, `check`); `listGraphs`, `newNode`/`newGraph` and `checkModule` take the same names.

export const GRAPHS_CONFIG = defineConfig({
  slots: { type: "boolean", help: "each graph's node slots (what --node SLOT=MODULE can replace)" },
  options: { type: "boolean", help: "each graph's own options (flags of ask and eval)" },
  graph: { type: "string", metavar: "FILE", help: "a graph module of your own instead of the built-in graphs" },
  json: { type: "boolean", help: "the same as JSON" },
});

export const NEW_CONFIG = defineConfig({
  graph: { type: "string", metavar: "GRAPH", help: "new node: the built-in graph whose slot it replaces" },
  slot: { type: "string", metavar: "SLOT", help: "new node: the slot (sqlmend graphs --slots lists them)" },
  name: { type: "string", metavar: "NAME", help: "new graph: its name (default: the file's)" },
});

export const CHECK_CONFIG = defineConfig({
  graph: { type: "string", metavar: "GRAPH", help: "the graph whose slot the node fills (default: what 'sqlmend new node' wrote in the file)" },
  slot: { type: "string", metavar: "SLOT", help: "the slot" },
});
