import { UsageError } from "../core/errors.js";
import { fileOrder } from "./selection.js";
export function parseShard(text) {
    const match = /^(\d+)\/(\d+)$/.exec(text.trim());
    const index = Number(match?.[1]);
    const count = Number(match?.[2]);
    if (!match || count < 1 || index < 1 || index > count)
        throw new UsageError(`--shard takes I/N with 1 <= I <= N (e.g. 2/4), not '${text}'`);
    return { index, count };
}
export const shardName = (shard) => `${shard.index}/${shard.count}`;
/** The shard's share of a selection: by position in file order over questions and skipped questions together. */
export function shardOf(selection, shard) {
    if (!shard)
        return selection;
    const position = new Map(fileOrder([...selection.questions, ...selection.skipped]).map((q, i) => [q.id, i]));
    const mine = (id) => position.get(id) % shard.count === shard.index - 1;
    return { questions: selection.questions.filter((q) => mine(q.id)), skipped: selection.skipped.filter((q) => mine(q.id)) };
}
