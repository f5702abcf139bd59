/**
 * Memory flat with the work (issue 42): the launcher keeps V8's heap near its live data over a long run. V8 lets the
 * young generation grow to 32 MiB by default; after `keepLauncherHeapSmall` (which bin/sqlmend.js, the launcher process's entry, calls; main() does not, since a
 * host may call it in its own process) it stops
 * at 8 MiB. Run in a child process each: the flags are the whole process's.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const HEAP_MODULE = fileURLToPath(new URL("../cli/shared/heap.ts", import.meta.url));
const MiB = 1024 * 1024;

/** The young generation's size after allocating much that survives a little while (as a question's state does). */
function youngAfterWork(kept: boolean): number {
  const script = `
    import { getHeapSpaceStatistics } from "node:v8";
    const { keepLauncherHeapSmall } = await import(${JSON.stringify(HEAP_MODULE)});
    if (${kept}) keepLauncherHeapSmall();
    const live = [];
    for (let i = 0; i < 1_500_000; i++) {
      live.push({ i, text: "row " + i });
      if (live.length > 200_000) live.splice(0, 100_000);
      // The launcher's event loop turns often (a question awaits at every step): the collection observer reports then.
      if (i % 2_000 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    console.log(getHeapSpaceStatistics().find((space) => space.space_name === "new_space").space_size);`;
  const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 60_000 });
  expect(child.status, child.stderr).toBe(0);
  return Number(child.stdout.trim());
}

describe("the launcher's heap", () => {
  it("stops the young generation growing at 8 MiB (V8's default lets it reach 32 MiB)", () => {
    expect(youngAfterWork(false)).toBeGreaterThan(8 * MiB);
    expect(youngAfterWork(true)).toBeLessThanOrEqual(8 * MiB);
  }, 120_000);
});
