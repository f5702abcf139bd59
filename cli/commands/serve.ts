import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { parseFlags } from "../shared/flags.ts";
import { configFromFlags, flagTableOf, usageOf } from "../shared/flag-config.ts";
import { SERVE_CONFIG } from "../../runner/lab/serve-config.ts";
import { EXIT } from "../../core/exit.ts";

export const serveCommand: Command = {
  name: "serve",
  usage: `Usage: sqlmend serve [--graph FILE ...] [--host 127.0.0.1] [--port 2024]

  A LangGraph server (the LangGraph CLI's dev server) serving every built-in graph and each --graph module of yours
  under its own name: 'sqlmend eval GRAPH --server URL' (or '--graph FILE --server URL') runs on it, scoring here;
  LangGraph Studio can open it. Its langgraph.json is written in the data directory (printed): a start for a
  hand-written one ('servedModule(FILE)' from sqlmend/graphs/serve serves a module). Models come from this
  environment (OPENAI_BASE_URL, SQLMEND_MODEL, ...). Runs until Ctrl-C.

${usageOf(SERVE_CONFIG, undefined, 16)}`,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, flagTableOf(SERVE_CONFIG));
    if (positionals.length) throw new UsageError(`unexpected argument '${positionals[0]}'`);
    const config = configFromFlags(SERVE_CONFIG, values);
    const port = config.port ?? 2024;
    const { startServe } = await import("../../runner/lab/serve.ts");
    // The server's own log (requests, a graph that fails to load) goes on stderr, as the LangGraph CLI prints it.
    const server = await startServe({ ...(config.graph ? { graphs: config.graph } : {}), host: config.host ?? "127.0.0.1", port, cwd: io.cwd, env: io.env, log: (text) => io.stderr(text) });
    io.stdout(`serving ${server.graphs.length} graphs at ${server.url} (${server.graphs.join(", ")})\nconfig: ${server.config}\nCtrl-C stops it\n`);
    const stop = () => void server.close();
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
    const code = await server.exited;
    return code === 0 || code === null ? EXIT.ok : EXIT.error;
  },
};
