/**
 * A node's error kept in its thread: LangGraph saves a failed task's `{ message, name }` only, so the runner adds the
 * slot, class and stack (`ErrorDetail`) as a write of its own on the thread's last checkpoint. Its task id is no
 * task's, so LangGraph never applies it to a task (a resumed thread reruns the failed one as before); readers
 * (`readThread`, `inspect`) find it by channel.
 */
import type { BaseCheckpointSaver } from "@langchain/langgraph-checkpoint";
import type { ErrorDetail } from "../core/errors.ts";

export const ERROR_DETAIL_CHANNEL = "__sqlmend_error__";
export const ERROR_DETAIL_TASK = "sqlmend-error";

/** Writes `detail` on checkpoint `checkpointId` of the thread; a store that refuses is not the question's failure. */
export async function keepThreadError(saver: Pick<BaseCheckpointSaver, "putWrites">, threadId: string, checkpointId: string, detail: ErrorDetail): Promise<boolean> {
  try {
    await saver.putWrites({ configurable: { thread_id: threadId, checkpoint_ns: "", checkpoint_id: checkpointId } }, [[ERROR_DETAIL_CHANNEL, detail]], ERROR_DETAIL_TASK);
    return true;
  } catch {
    return false;
  }
}
