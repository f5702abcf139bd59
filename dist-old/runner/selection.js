import { UserError } from "../core/errors.js";
/** The questions to run: `--ids` and `--limit` (counted in file order, skipped ones included, so a subset is stable). */
export function selectQuestions(bench, ids, limit) {
    const wanted = ids?.flatMap((s) => s.split(",")).map((s) => s.trim()).filter(Boolean);
    let questions = bench.questions;
    let skipped = bench.skipped;
    if (wanted?.length) {
        const known = new Set([...questions.map((q) => q.id), ...skipped.map((q) => q.id)]);
        const unknown = wanted.filter((id) => !known.has(id));
        if (unknown.length)
            throw new UserError(`--ids: no question with id ${unknown.slice(0, 5).join(", ")} in ${bench.name}`);
        const set = new Set(wanted);
        questions = questions.filter((q) => set.has(q.id));
        skipped = skipped.filter((q) => set.has(q.id));
    }
    if (limit !== undefined) {
        const keep = new Set(fileOrder([...questions, ...skipped]).slice(0, limit).map((q) => q.id));
        questions = questions.filter((q) => keep.has(q.id));
        skipped = skipped.filter((q) => keep.has(q.id));
    }
    return { questions, skipped };
}
/** Benchmark order: the questions' places in their file; without them numeric ids sort as numbers, others keep their order. */
export function fileOrder(items) {
    if (items.every((q) => q.position !== undefined))
        return [...items].sort((a, b) => a.position - b.position);
    const numeric = items.every((q) => /^\d+$/.test(q.id));
    return numeric ? [...items].sort((a, b) => Number(a.id) - Number(b.id)) : items;
}
