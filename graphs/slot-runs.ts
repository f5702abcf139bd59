/**
 * Which swapped slots (`--node SLOT=FILE`) ran in which threads of this process: a replacement that never runs (a graph
 * that routes around it, a slot that only some questions reach) would otherwise leave a run that looks like a test of
 * the new node and is not. `nodeForSlot` notes each run of a replacement; the runner takes a question's slots when
 * its record is made, and report.md counts them per slot.
 */

const runs = new Map<string, Set<string>>();
/** Threads not taken by a runner (a notebook's, `ask`'s) are forgotten past this many, oldest first. */
const MAX_THREADS = 10_000;

/** A replacement of `slot` ran on the thread (LangGraph's `configurable.thread_id`; nothing when there is none). */
export function noteSlotRun(threadId: unknown, slot: string): void {
  if (typeof threadId !== "string") return;
  let slots = runs.get(threadId);
  if (!slots) {
    if (runs.size >= MAX_THREADS) runs.delete(runs.keys().next().value!);
    runs.set(threadId, (slots = new Set()));
  }
  slots.add(slot);
}

/** The swapped slots that ran on the thread or its sub-threads (`…/initial`), sorted; forgets them. */
export function takeSlotRuns(threadId: string): string[] {
  const slots = new Set<string>();
  for (const [thread, ran] of runs) {
    if (thread !== threadId && !thread.startsWith(`${threadId}/`)) continue;
    for (const slot of ran) slots.add(slot);
    runs.delete(thread);
  }
  return [...slots].sort();
}
