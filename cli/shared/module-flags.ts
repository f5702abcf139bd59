import { parseArgs } from "node:util";
import { configValue } from "../../core/config.ts";
import { GRAPH_CONFIG } from "../../runner/run/run-config.ts";
import type { ModulesConfig } from "../../runner/run/user-modules.ts";

/**
 * The modules a command line names (`--node SLOT=FILE`, `--graph FILE`; `--server` beside them), read before its flags
 * are parsed: a module's own options are flags of the run, so the flag table waits for the modules.
 */
export function modulesOfArgv(argv: string[]): ModulesConfig {
  const { values } = parseArgs({ args: argv, options: { node: { type: "string", multiple: true }, graph: { type: "string" }, server: { type: "string" } }, strict: false, allowPositionals: true });
  const node = configValue("node", GRAPH_CONFIG.node, (values.node as (string | boolean)[] | undefined)?.map(String), "flag") as Record<string, string> | undefined;
  return { ...(node ? { node } : {}), ...(typeof values.graph === "string" ? { graph: values.graph } : {}), ...(typeof values.server === "string" ? { server: values.server } : {}) };
}
