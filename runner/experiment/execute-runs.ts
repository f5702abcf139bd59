import { opt, optionUserError } from "../../core/config.ts";
import fs from "node:fs";
import path from "node:path";
import { EXIT, isStopStatus } from "../../core/exit.ts";
import type { CliIO } from "../../core/io.ts";
import { invocationOf, type RunContext, type RunsAt } from "./recipe-runs.ts";

/**
 * Runs the recipe's runs in order into `dir`/<run>/, through the commands' own code. A run that cannot run is added
 * to `blocked` with the reason (printed in the table), as are the runs that need it. A stop status (130 Ctrl-C, 143
 * SIGTERM, 129 SIGHUP): stopped.
 */
export async function executeRuns(ctx: RunContext, at: RunsAt): Promise<{ code: number }> {
  const { io, recipe, order, sets } = ctx;
  const { blocked } = at;
  const ex = await import("./recipe.ts");
  const outOf = at.outOf ?? ((run: string) => path.join(at.dir, run));
  const [{ evaluate }, { trainGuideline }, { buildMemoryFile }, { candidatesFile }] = await Promise.all([
    import("../eval/run-eval.ts"),
    import("../methods/magic/guideline-training.ts"),
    import("../methods/memo/build-memory.ts"),
    import("../methods/memo/write-candidates.ts"),
  ]);
  for (const run of order) {
    if (at.skip?.has(run)) continue;
    const spec = recipe.runs[run]!;
    // A run needing a file another run did not write (a guideline batch a short run never merged) is not run, with
    // the reason in the table — nor are the runs that need it.
    const missing = Object.values(spec.options).flat().map(String).filter((v) => /\{run:[^}]+\}\//.test(v)).map((v) => ex.resolveRefs(v, outOf, sets)).find((f) => !fs.existsSync(f));
    const lost = ex.dependenciesOf(recipe, run).find((d) => blocked.has(d));
    if (!blocked.has(run) && (missing || lost)) blocked.set(run, missing ? `${path.relative(at.dir, missing)} was not written by its run` : `run ${lost} did not run: ${blocked.get(lost!)}`);
    if (blocked.has(run)) {
      io.stderr(`\nsqlmend experiment ${recipe.name}: run ${run} not run: ${blocked.get(run)}\n`);
      continue;
    }
    const call = await invocationOf(ctx, run, at);
    io.stderr(`\nsqlmend experiment ${recipe.name}: run ${run} (${order.indexOf(run) + 1}/${order.length})\n`);
    const prefixed: CliIO = { ...io, stdout: (t) => io.stderr(t.replace(/^(?=.)/gm, `  ${run}: `)) };
    let code: number;
    if (call.kind === "magic-guideline") code = (await trainGuideline(call.config, call.graphOptions, prefixed)).exitCode;
    else if (call.kind === "memo-build") {
      fs.mkdirSync(outOf(run), { recursive: true });
      code = (await buildMemoryFile(call.config, prefixed)).exitCode;
    } else if (call.kind === "memo-candidates") {
      fs.mkdirSync(outOf(run), { recursive: true });
      code = (await candidatesFile(call.config, prefixed)).exitCode;
    } else code = (await evaluate(call.input, prefixed)).exitCode;
    if (isStopStatus(code)) {
      io.stderr(`Stopped during run ${run}; --resume continues the experiment.\n`);
      return { code };
    }
    // 3: the run finished with failed questions (counted in the table; --resume retries them); the others go on.
    if (code === EXIT.incomplete) io.stderr(`warning: run ${run} finished with failed questions; the table counts them, --resume retries them\n`);
    else if (code !== EXIT.ok) throw optionUserError`run ${run} exited with ${code}; ${opt("resume")} continues the experiment once it is fixed`;
  }
  return { code: EXIT.ok };
}
