/**
 * What a run pays for sqlmend's code identity (run.json's `code`, checked by --resume): the sha256 of every source
 * file, once per process, in a fresh process each time (cold file cache aside). Prints the files hashed and the
 * median, min and max wall time over N fresh processes.
 *
 * Run: npx tsx bench/code-identity.ts [--runs 10]
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { parseArgs } from "node:util";

const { values } = parseArgs({ options: { runs: { type: "string", default: "10" } } });
const ROOT = path.resolve(import.meta.dirname, "..");
const script = `import { sourceDigest, sourceSnapshot } from ${JSON.stringify(path.join(ROOT, "bin", "freshness.js"))};
const files = Object.keys(sourceSnapshot(${JSON.stringify(ROOT)}).entries).length;
const t = performance.now();
sourceDigest(${JSON.stringify(ROOT)});
process.stdout.write(JSON.stringify({ ms: performance.now() - t, files }));`;
const times: number[] = [];
let files = 0;
for (let i = 0; i < Number(values.runs); i++) {
  const run = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
  const result = JSON.parse(run.stdout) as { ms: number; files: number };
  times.push(result.ms);
  files = result.files;
}
times.sort((a, b) => a - b);
console.log(`code identity: ${files} source files and folders; sha256 in ${times[Math.floor(times.length / 2)]!.toFixed(1)} ms median (min ${times[0]!.toFixed(1)}, max ${times.at(-1)!.toFixed(1)}) over ${times.length} fresh processes`);
