// Preloaded into a measured sqlmend process (bench/memory-flat.ts): on SIGUSR2, two full GCs (node --expose-gc),
// then the heap still in use and its code space appended to $MEMORY_PROBE_FILE, in bytes; with $MEMORY_PROBE_SNAPSHOTS (a folder), a
// heap snapshot there too (compare two in Chrome DevTools).
import fs from "node:fs";
import path from "node:path";
import v8 from "node:v8";

const file = process.env.MEMORY_PROBE_FILE;
if (file && typeof globalThis.gc === "function") {
  let taken = 0;
  process.on("SIGUSR2", () => {
    globalThis.gc();
    globalThis.gc();
    // The heap in use, and of it the compiled code (V8's code space: JIT output, which grows as more functions get hot).
    const code = v8.getHeapSpaceStatistics().find((space) => space.space_name === "code_space")?.space_used_size ?? 0;
    fs.appendFileSync(file, `${process.memoryUsage().heapUsed} ${code}\n`);
    const folder = process.env.MEMORY_PROBE_SNAPSHOTS;
    if (folder) v8.writeHeapSnapshot(path.join(folder, `probe-${++taken}.heapsnapshot`));
  });
}
