import { checkConfig, commandLineOfConfig, type ConfigInput, inApiWords, opt, optionUsageError } from "../../core/config.ts";
import { UsageError } from "../../core/errors.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { cacheModeFrom, modelFlagsFrom } from "../run/model-options.ts";
import { withObjectModules } from "../run/user-modules.ts";
import type { AnyNodeFactory } from "../../nodes/types.ts";
import type { ReplayResult } from "./fork-replay.ts";
import { REPLAY_CONFIG, type ReplayConfig } from "./replay-config.ts";

/**
 * Replays an eval run from a slot as `sqlmend replay` does: `run` the run folder, `from` the slot, `out`, and by name
 * `node: { SLOT: FILE }`, `graph`, `only`, `ids`, `concurrency`, `resume`, `checkpoints`, the model options. Writes a
 * run folder `compare` takes and returns what the replay reused and cost. Closed: a misspelt option does not compile.
 */
export type ReplayOptions = Omit<ConfigInput<typeof REPLAY_CONFIG>, "from" | "out" | "node"> & {
  run: string;
  from: string;
  out: string;
  /** Slot swaps for the suffix: by slot, a module file or the node factory itself (known by its source text's sha256). */
  node?: Readonly<Record<string, string | AnyNodeFactory>>;
};

export async function replay(options: ReplayOptions, io: CliIO = defaultIO()): Promise<ReplayResult> {
  const { run, node, ...rest } = options;
  return inApiWords("replay", async () => replayFrom({ config: checkConfig("replay", REPLAY_CONFIG, { ...rest, ...withObjectModules(node, undefined) }), runDir: run }, io));
}

/** replay from its typed config and the run folder (the launcher's parse, or `replay`'s): the one body both run. */
export async function replayFrom(input: { config: ReplayConfig; runDir: string | undefined }, io: CliIO): Promise<ReplayResult> {
  const { config, runDir } = input;
  if (!runDir) throw new UsageError("name the eval output folder to replay");
  if (config.from === undefined) throw optionUsageError`${opt("from")} SLOT is required (where the threads fork)`;
  if (config.out === undefined) throw optionUsageError`${opt("out")} DIR is required`;
  modelFlagsFrom(config);
  const cache = cacheModeFrom(config, io.env);
  const nodes = config.node ?? {};

  // What runs a graph (LangGraph, the checkpoint store) loads once the options have passed their checks.
  const [{ replayRunner }, { replayRun, swapsBySlot }, { getSharedExecutor }] = await Promise.all([
    import("../run/graph-runner.ts"),
    import("./fork-replay.ts"),
    import("../../tools/sqlite/executor.ts"),
  ]);
  const executor = getSharedExecutor();
  return replayRun({
    runDir,
    from: config.from,
    outDir: config.out,
    // fork-replay records the swaps as `SLOT=FILE` items (run.json's `replay.nodes`, the report's line).
    nodes: Object.entries(nodes).map(([slot, file]) => `${slot}=${file}`),
    only: config.only ?? "all",
    ...(config.ids ? { ids: config.ids } : {}),
    concurrency: config.concurrency ?? 4,
    resume: config.resume ?? false,
    ...(config.checkpoints !== undefined ? { checkpoints: config.checkpoints } : {}),
    env: io.env,
    cwd: io.cwd,
    io,
    // The command line that does what this config does, the launcher's or a script's alike (display only).
    command: commandLineOfConfig("replay", [runDir], REPLAY_CONFIG, config),
    reportSettings: { cache },
    runnerFor: (original, ctx) =>
      replayRunner({ original, nodes: swapsBySlot(ctx.nodes), graph: config.graph, config, env: io.env, cwd: io.cwd, executor, checkpointer: ctx.checkpointer, bench: ctx.bench, benchDir: ctx.benchDir, warn: ctx.warn }),
  });
}
