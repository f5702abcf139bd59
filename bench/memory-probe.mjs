// Preloaded into a measured sqlmend process (bench/memory-flat.ts): on SIGUSR2, two full GCs (node --expose-gc),
// then the heap still in use appended to $MEMORY_PROBE_FILE, in bytes.
import fs from "node:fs";

const file = process.env.MEMORY_PROBE_FILE;
if (file && typeof globalThis.gc === "function") {
  process.on("SIGUSR2", () => {
    globalThis.gc();
    globalThis.gc();
    fs.appendFileSync(file, `${process.memoryUsage().heapUsed}\n`);
  });
}
