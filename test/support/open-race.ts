/**
 * A child process for test/shared-sqlite.test.ts: opens each given file at its given moment (so several children
 * open the same new file at once) with the named opener, and prints one JSON line per file: "ok" or the one-line
 * error and any warning the opener gave.
 */
import { openCheckpointer } from "../../storage/checkpoints.ts";
import { MemoryStore } from "../../tools/retrieval/memory-store.ts";
import { ResponseStore } from "../../tools/models/response-cache.ts";

const [kind, startsAt, ...files] = process.argv.slice(2);
const step = 120;
for (const [round, file] of files.entries()) {
  while (Date.now() < Number(startsAt) + round * step) {
    /* spin to the round's moment: a timer would blur it */
  }
  const warnings: string[] = [];
  let error: string | undefined;
  try {
    if (kind === "responses") {
      const store = new ResponseStore(file, (line) => warnings.push(line));
      if (!store.broken) store.put("k", 0, { model: "m", reply: { text: "t", message: { content: "t" } }, inputTokens: 1, outputTokens: 1 }, false);
      store.close();
    } else if (kind === "memory") {
      MemoryStore.open(file, { create: true }).close();
    } else {
      const opened = openCheckpointer(file, process.env, process.cwd(), { onDamagedFile: (note) => warnings.push(note) });
      opened.close();
    }
  } catch (caught) {
    error = caught instanceof Error ? caught.message : String(caught);
  }
  process.stdout.write(JSON.stringify({ file, error, warnings }) + "\n");
}
