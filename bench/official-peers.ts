/**
 * The peers the scoring benches time sqlmend against (issue 42, targets 4 and 5), run from a temporary folder:
 * - BIRD's official EX structure: mini_dev's own `evaluation/evaluation_ex.py` (a process pool, `apply_async` per pair,
 *   `func_timeout` per query: a thread each), run as its script. Modules it imports only for other dialects
 *   (psycopg2, pymysql) are empty stand-ins; `func_timeout`, when not installed, is a stand-in doing what it does (the
 *   call in a daemon thread, joined with the time limit). The checkout's files are copied, never changed.
 * - Spider's official `exec_eval.eval_exec_match` (taoyds/test-suite-sql-eval), called per pair in one process as its
 *   evaluation.py --etype exec calls it (DISTINCT removed, no value plugging); tqdm stood in when missing.
 * Nothing here downloads the official code: the benches take checkouts by path and fail, saying so, without them.
 */
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
export const secs = (ms: number) => (ms / 1000).toFixed(2);

/**
 * CPU of this process's finished children and their waited-for descendants (Linux: /proc/self/stat cutime + cstime,
 * clock ticks of 10 ms): a whole process tree's CPU once it has exited, SQL workers and pool processes included.
 */
export function childCpuMs(): number {
  const fields = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

export interface Timed {
  wallMs: number;
  cpuMs: number;
  stdout: string;
}

/**
 * Each named command's timings: one untimed round of all (caches warm), then `rounds` rounds, the order turning each
 * round so none always runs first or after the same neighbour; a machine's load weighs on all alike. With the medians
 * of each command's wall and CPU time.
 */
export function interleavedRounds<N extends string>(runs: Record<N, () => Timed>, names: N[], rounds: number) {
  const results = Object.fromEntries(names.map((n) => [n, [] as Timed[]])) as Record<N, Timed[]>;
  for (const name of names) runs[name]();
  for (let r = 0; r < rounds; r++) {
    for (let k = 0; k < names.length; k++) {
      const name = names[(r + k) % names.length]!;
      results[name].push(runs[name]());
    }
  }
  return { results, wall: (n: N) => median(results[n].map((t) => t.wallMs)), cpu: (n: N) => median(results[n].map((t) => t.cpuMs)) };
}

/** Runs a command to its end: its wall time and the CPU of its whole process tree. Throws with its stderr on failure. */
export function timed(label: string, command: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Timed {
  const cpu = childCpuMs();
  const started = performance.now();
  const run = spawnSync(command, args, { encoding: "utf8", maxBuffer: 1 << 28, ...options });
  const wallMs = performance.now() - started;
  if (run.status !== 0) throw new Error(`${label} failed (exit ${run.status ?? run.signal}): ${(run.stderr || run.stdout).trim().split("\n").slice(-4).join(" | ")}`);
  return { wallMs, cpuMs: childCpuMs() - cpu, stdout: run.stdout };
}

/** The Python the peers run: --python, else /usr/bin/python3, else python3 on the PATH. */
export const pythonOf = (given?: string) => given ?? (existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3");

const importable = (python: string, module: string) => spawnSync(python, ["-c", `import ${module}`], { encoding: "utf8" }).status === 0;

/** A peer that cannot run here: the bench prints this and exits 1. */
export class PeerMissing extends Error {}

/**
 * A peer bench's body, run to its exit status: a missing peer is one line (`bench/NAME: ...`) and exit 1, and the
 * temporary folder goes whatever happens. The body returns false when its figures must not be taken (exit 1).
 */
export async function runPeerBench(name: string, tmp: string, body: () => Promise<boolean>): Promise<void> {
  let ok = false;
  try {
    ok = await body();
  } catch (error) {
    if (!(error instanceof PeerMissing)) throw error;
    console.error(`bench/${name}: ${error.message}`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
  process.exitCode = ok ? 0 : 1;
}

/** Whether every scorer found all `pairs` golds right on themselves; says so when not (the figures do not compare). */
export function everyGoldRight(found: (number | undefined)[], pairs: number): boolean {
  if (found.every((n) => n === pairs)) return true;
  console.log("note: a scorer did not find every gold right on itself: the figures above are not comparable");
  return false;
}

/** mini_dev's evaluation folder from a checkout path (the repository or its evaluation/ folder). */
export function minidevEvaluationDir(given: string | undefined): string {
  if (!given) throw new PeerMissing("the official BIRD scorer is missing: give --minidev-official PATH (a checkout of bird-bench/mini_dev, or its evaluation/ folder)");
  const dir = [path.resolve(given, "evaluation"), path.resolve(given)].find((d) => existsSync(path.join(d, "evaluation_ex.py")));
  if (!dir) throw new PeerMissing(`--minidev-official ${given}: no evaluation_ex.py there nor in its evaluation/ folder (a checkout of bird-bench/mini_dev)`);
  return dir;
}

/** test-suite-sql-eval's folder (with exec_eval.py), checked. */
export function testSuiteDir(given: string | undefined): string {
  if (!given) throw new PeerMissing("Spider's official exec_eval is missing: give --ts-official PATH (a checkout of taoyds/test-suite-sql-eval)");
  const dir = path.resolve(given);
  if (!existsSync(path.join(dir, "exec_eval.py"))) throw new PeerMissing(`--ts-official ${given}: no exec_eval.py there (a checkout of taoyds/test-suite-sql-eval)`);
  return dir;
}

/** func_timeout's mechanism, where the package is not installed: the call in a daemon thread, joined with the limit. */
const FUNC_TIMEOUT_STAND_IN = `import threading

class FunctionTimedOut(BaseException):
    pass

def func_timeout(timeout, func, args=(), kwargs=None):
    out = []
    def run():
        try:
            out.append((True, func(*args, **(kwargs or {}))))
        except BaseException as e:
            out.append((False, e))
    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise FunctionTimedOut()
    ok, value = out[0]
    if not ok:
        raise value
    return value
`;

export interface Pair {
  pred: string;
  gold: string;
  /** The database file. */
  db: string;
}

export interface BirdPeer {
  /** python3 evaluation_ex.py ... as argv (run in `cwd`). */
  args: string[];
  cwd: string;
  /** What stood in for what, said by the bench. */
  notes: string[];
  /** EX in percent from its output. */
  exOf(stdout: string): number | undefined;
}

/**
 * mini_dev's evaluation_ex.py set up in `dir` over the pairs: predictions as its predict_*.json (by position), gold as
 * its gold.sql ("SQL\tdb_id" lines), databases as `dbRoot/<db_id>/<db_id>.sqlite`, difficulties spread over its three
 * levels (it divides by each level's count). `cpus`: its --num_cpus.
 */
export function birdPeer(python: string, evaluationDir: string, dir: string, pairs: Array<Pair & { dbId: string }>, dbRoot: string, cpus: number): BirdPeer {
  mkdirSync(dir, { recursive: true });
  const notes: string[] = [];
  for (const file of ["evaluation_ex.py", "evaluation_utils.py"]) copyFileSync(path.join(evaluationDir, file), path.join(dir, file));
  for (const module of ["psycopg2", "pymysql"]) {
    if (!importable(python, module)) writeFileSync(path.join(dir, `${module}.py`), "# only its other dialects use it\n");
  }
  if (!importable(python, "func_timeout")) {
    writeFileSync(path.join(dir, "func_timeout.py"), FUNC_TIMEOUT_STAND_IN);
    notes.push("func_timeout is not installed: a stand-in doing what it does (each query in a daemon thread, joined with the time limit)");
  }
  const oneLine = (s: string) => s.replace(/\s+/g, " ").trim();
  const levels = ["simple", "moderate", "challenging"];
  writeFileSync(path.join(dir, "pred.json"), JSON.stringify(Object.fromEntries(pairs.map((p, i) => [String(i), `${oneLine(p.pred)}\t----- bird -----\t${p.dbId}`]))));
  writeFileSync(path.join(dir, "gold.sql"), pairs.map((p) => `${oneLine(p.gold)}\t${p.dbId}\n`).join(""));
  writeFileSync(path.join(dir, "diff.jsonl"), pairs.map((_, i) => `${JSON.stringify({ difficulty: levels[i % 3] })}\n`).join(""));
  return {
    args: [
      "evaluation_ex.py",
      "--predicted_sql_path", "pred.json",
      "--ground_truth_path", "gold.sql",
      "--db_root_path", `${dbRoot.replace(/\/+$/, "")}/`,
      "--num_cpus", String(cpus),
      "--diff_json_path", "diff.jsonl",
      "--output_log_path", "log.txt",
    ],
    cwd: dir,
    notes,
    exOf: (stdout) => {
      const cells = stdout.split("\n").find((l) => l.startsWith("EX "))?.trim().split(/\s+/);
      return cells ? Number(cells.at(-1)) : undefined;
    },
  };
}

/** Spider's exec_eval over the pairs, one after another in one process (evaluation.py --etype exec's loop). */
export function spiderPeer(python: string, tsDir: string, dir: string, pairs: Pair[]): { args: string[]; cwd: string; notes: string[]; correctOf(stdout: string): number | undefined } {
  mkdirSync(dir, { recursive: true });
  const notes: string[] = [];
  writeFileSync(path.join(dir, "pairs.json"), JSON.stringify(pairs));
  writeFileSync(
    path.join(dir, "exec_eval_loop.py"),
    `import json, sys, types
try:
    import tqdm
except ImportError:
    tqdm = types.ModuleType("tqdm")
    tqdm.tqdm = lambda it, *a, **k: it
    sys.modules["tqdm"] = tqdm
sys.path.insert(0, ${JSON.stringify(tsDir)})
from exec_eval import eval_exec_match
correct = 0
pairs = json.load(open(sys.argv[1]))
for p in pairs:
    correct += eval_exec_match(db=p["db"], p_str=p["pred"], g_str=p["gold"], plug_value=False, keep_distinct=False, progress_bar_for_each_datapoint=False)
print("correct", correct, len(pairs))
`,
  );
  if (!importable(python, "sqlparse")) throw new PeerMissing(`${python} lacks sqlparse, which exec_eval's parse.py imports (Debian: apt-get install python3-sqlparse)`);
  if (!importable(python, "tqdm")) notes.push("tqdm is not installed: a stand-in (exec_eval imports it for progress bars, off here)");
  return {
    args: ["exec_eval_loop.py", "pairs.json"],
    cwd: dir,
    notes,
    correctOf: (stdout) => {
      const m = /^correct (\d+)/m.exec(stdout);
      return m ? Number(m[1]) : undefined;
    },
  };
}

/** sqlmend score's "all" row: correct and count. */
export function sqlmendCorrect(stdout: string): { correct: number; count: number } | undefined {
  const cells = stdout.split("\n").find((l) => /^all\s/.test(l))?.trim().split(/\s+/);
  return cells ? { count: Number(cells[1]), correct: Number(cells[2]) } : undefined;
}
