import { UsageError } from "../../core/errors.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import { commandLine } from "../../core/secrets.ts";
import { cacheModeFrom, intFlag, modelFlagsFrom, pairs, runFlags, withObjectModules } from "../run/run-options.ts";
import type { AnyNodeFactory } from "../../nodes/types.ts";
import type { ReplayResult } from "./fork-replay.ts";
import { type ApiOptionsOf, asApiErrors, commandLineOf, type FlagTable, type FlagValues, type FlagValuesOf, flagValuesOf } from "../run/api-options.ts";

// The model flags of eval (the suffix's models; the graph's options come from the run's run.json).
const { node: _node, checkpoints: _checkpoints, initial: _initial, correct: _correct, "max-fix-rounds": _f, "few-shot": _s, "schema-max-chars": _c, "query-timeout-ms": _q, ...modelFlags } = runFlags;

const SELECTIONS = ["all", "wrong", "right", "failed"];

/** `sqlmend replay`'s flags. */
export const REPLAY_FLAGS = {
  ...modelFlags,
  from: { type: "string" },
  out: { type: "string" },
  node: { type: "string", multiple: true },
  graph: { type: "string" },
  only: { type: "string" },
  ids: { type: "string", multiple: true },
  concurrency: { type: "string" },
  resume: { type: "boolean" },
  checkpoints: { type: "string" },
} as const;

export const REPLAY_USAGE = `Usage: sqlmend replay RUN_DIR --from SLOT --out DIR [--node SLOT=FILE ...] [--only wrong|right|failed|all]
                      [--ids ID,...] [--concurrency K] [--resume] [--checkpoints FILE|postgres://...] [model flags]

Counterfactual runs on recorded states: each question of the eval run in RUN_DIR is forked from its checkpointed
thread at the last checkpoint before SLOT first ran, onto a thread of its own (the run's threads are only read); the
prefix stays as recorded and only the rest runs, with the swapped nodes. The graph and its options are the run's
(run.json); the models are this command's (as eval takes them).
  --from SLOT              where the threads fork (sqlmend graphs --slots)
  --out DIR                an eval output folder: results.jsonl (the suffix's tokens and calls; the prefix's in each
                           record's 'replay'), predictions, report.md (what was reused, what was not replayed), run.json;
                           'sqlmend compare RUN_DIR DIR' compares it with the original
  --node SLOT=FILE         replace a node for the suffix (repeatable; over the run's own swaps)
  --graph FILE             the graph module of a run made with 'eval --graph FILE' (default: the file its
                           run.json names)
  --only wrong|right|failed|all   the questions by the original verdict (default all); --ids picks ids
  --checkpoints LOCATION   where the run's threads are (default: what its run.json says)
  --cache off              send every suffix request to the model (with the cache on, a request the original's
                           suffix made alike is served from the cache)
  model flags              --model, --base-url, --config, --role-model, --temperature, --seed, ... as for eval

  A question whose thread never reached SLOT is not replayed: report.md lists it.
  Exit status: 0 every replayed question answered; 3 questions failed; 130 Ctrl-C; 1 user error; 2 usage.`;

/**
 * Replays an eval run from a slot as `sqlmend replay` does: `run` the run folder, `from` the slot, `out`, and by name
 * `node: { SLOT: FILE }`, `graph`, `only`, `ids`, `concurrency`, `resume`, `checkpoints`, the model options. Writes a
 * run folder `compare` takes and returns what the replay reused and cost.
 */
export type ReplayOptions = Omit<ApiOptionsOf<typeof REPLAY_FLAGS>, "from" | "out" | "node" | "only"> & {
  run: string;
  from: string;
  out: string;
  /** Slot swaps for the suffix: by slot, a module file or the node factory itself (known by its source text's sha256). */
  node?: Readonly<Record<string, string | AnyNodeFactory>>;
  only?: "all" | "wrong" | "right" | "failed";
};

export async function replay(options: ReplayOptions, io: CliIO = defaultIO()): Promise<ReplayResult> {
  const { run, node, ...rest } = options;
  return asApiErrors("replay", () => replayFrom({ values: flagValuesOf("replay", { ...rest, ...withObjectModules(node, undefined) }, REPLAY_FLAGS as FlagTable), positionals: [run] }, io));
}

/** replay from its flag values and the run folder (the launcher's parse, or `replay`'s): the one body both run. */
export async function replayFrom(input: { values: FlagValues; positionals: string[]; argv?: string[] }, io: CliIO): Promise<ReplayResult> {
  const values = input.values as FlagValuesOf<typeof REPLAY_FLAGS>;
  const { positionals } = input;
  const [runDir, extra] = positionals;
  if (!runDir) throw new UsageError("name the eval output folder to replay");
  if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
  if (!values.from) throw new UsageError("--from SLOT is required (where the threads fork)");
  if (!values.out) throw new UsageError("--out DIR is required");
  if (values.only !== undefined && !SELECTIONS.includes(values.only)) throw new UsageError(`--only takes ${SELECTIONS.join(", ")}, not '${values.only}'`);
  pairs(values.node, "node");
  const concurrency = intFlag(values, "concurrency", 1) ?? 4;
  modelFlagsFrom(values);
  const cache = cacheModeFrom(values, io.env);

  // What runs a graph (LangGraph, the checkpoint store) loads once the flags have passed their checks.
  const [{ replayRunner }, { replayRun }, { getSharedExecutor }] = await Promise.all([
    import("../run/graph-runner.ts"),
    import("./fork-replay.ts"),
    import("../../tools/sqlite/executor.ts"),
  ]);
  const executor = getSharedExecutor();
  const result = await replayRun({
    runDir,
    from: values.from,
    outDir: values.out,
    nodes: values.node ?? [],
    only: (values.only ?? "all") as "all",
    ...(values.ids ? { ids: values.ids } : {}),
    concurrency,
    resume: values.resume ?? false,
    ...(values.checkpoints !== undefined ? { checkpoints: values.checkpoints } : {}),
    env: io.env,
    cwd: io.cwd,
    io,
    command: input.argv ? commandLine("replay", input.argv) : commandLineOf("replay", positionals, input.values),
    reportSettings: { cache },
    runnerFor: (original, ctx) => replayRunner({ original, nodes: ctx.nodes, ...(values.graph ? { graph: values.graph } : {}), values, env: io.env, cwd: io.cwd, executor, checkpointer: ctx.checkpointer, bench: ctx.bench, benchDir: ctx.benchDir, warn: ctx.warn }),
  });
  return result;
}
