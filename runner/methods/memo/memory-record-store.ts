// A memory build's records: the memory file as the question runner's record store.
import { emptyUsage, type Usage } from "../../../state/usage.ts";
import type { BuiltQuestion, Outcome } from "../../../nodes/memo/memory-build.ts";
import type { RecordStore } from "../../run/question-loop.ts";
import type { MemoryStore } from "../../../tools/retrieval/memory-store.ts";

/** One training question's fate in a memory build; `failed` ones are not kept (a resumed build runs them again). */
export type BuildRecord = { id: string; outcome: Outcome | "failed"; note?: string; usage: Usage; entry?: BuiltQuestion["entry"] };

/** The memory file as the question runner's record store: a question's entry and its "done" mark in one transaction. */
export function memoryRecordStore(store: MemoryStore): RecordStore<BuildRecord> {
  return {
    load: () => new Map([...store.done()].map(([id, done]) => [id, { id, outcome: done.outcome as Outcome, note: done.note, usage: emptyUsage() }])),
    append: (record) => {
      if (record.outcome === "failed") return;
      if (record.entry) store.add(record.entry, { id: record.id, outcome: record.outcome });
      else store.markDone(record.id, record.outcome, record.note);
    },
  };
}
