import { PerformanceObserver } from "node:perf_hooks";
import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";

/** The young generation's size (both semi-spaces) at which it stops growing (V8's own limit here: 32 MiB). */
const YOUNG_BYTES = 8 * 1024 * 1024;
/** The old generation may grow this much past what the last full collection kept (V8 lets it grow up to 4x). */
const OLD_GROWTH_PERCENT = 20;

/**
 * The launcher's heap kept near its live data over a run of thousands of questions (bench/memory-flat.ts): V8 lets the
 * young generation grow to 32 MiB and the old one to several times what survives, most of a launcher's resident size
 * (its live heap is ~40 MB). The young generation stops growing at YOUNG_BYTES (a collection after each ~4 MiB
 * allocated: 1 MiB cost a fifth more CPU), the old one at OLD_GROWTH_PERCENT past its live size. Both are V8 flags
 * read as the heap grows, so they apply to this process from now on; the library never changes its host.
 */
export function keepLauncherHeapSmall(): void {
  setFlagsFromString(`--heap-growing-percent=${OLD_GROWTH_PERCENT}`);
  const stopYoungGrowth = () => setFlagsFromString("--semi-space-growth-factor=1");
  if (youngBytes() >= YOUNG_BYTES) return stopYoungGrowth();
  // It doubles at a collection: stopped once it reaches the size (checked after each collection until then).
  const observer = new PerformanceObserver(() => {
    if (youngBytes() < YOUNG_BYTES) return;
    stopYoungGrowth();
    observer.disconnect();
  });
  observer.observe({ entryTypes: ["gc"] });
}

const youngBytes = (): number => getHeapSpaceStatistics().find((space) => space.space_name === "new_space")?.space_size ?? 0;
