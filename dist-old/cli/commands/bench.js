import path from "node:path";
import { UsageError } from "../shared/command.js";
import { parseFlags } from "../shared/flags.js";
import { loadQuestionFile } from "../../tools/benchmarks/benchmark.js";
import { describeBenchmarkDir, summarizeBenchmark } from "../../tools/benchmarks/info.js";
import { resolveBenchmarkDir } from "../../tools/benchmarks/resolve.js";
import { EXIT } from "../../core/exit.js";
const usage = `Usage: sqlmend bench info DIR|minibench
       sqlmend bench info --questions FILE --db-dir DIR

Prints what a benchmark folder holds: its layout, the splits found (question file and databases folder), and for
each split the questions, how many have gold SQL, the databases present and missing, and the difficulty counts.
With --questions/--db-dir: the same for your own question file over a folder of databases.`;
const listed = (items, max = 8) => (items.length ? items.slice(0, max).join(", ") + (items.length > max ? `, ... (${items.length - max} more)` : "") : "none");
function renderSplit(s, indent) {
    if (s.error)
        return [`${indent}error: ${s.error}`];
    const difficulties = Object.entries(s.difficulties).map(([d, n]) => `${d} ${n}`).join(", ");
    return [
        `${indent}questions: ${s.questions}${s.questions > s.runnable ? `, ${s.questions - s.runnable} of them skipped (database missing)` : ""}; ${s.withGold} of the ${s.runnable} runnable have gold SQL`,
        `${indent}databases: ${s.databases.present.length} present, ${s.databases.missing.length} missing${s.databases.missing.length ? ` (${listed(s.databases.missing)})` : ""}`,
        `${indent}difficulty: ${difficulties || "none"}`,
    ];
}
export const benchCommand = {
    name: "bench",
    usage,
    async run(argv, io) {
        const { values, positionals } = parseFlags(argv, { questions: { type: "string" }, "db-dir": { type: "string" } });
        if (positionals[0] !== "info")
            throw new UsageError(positionals[0] ? `unknown bench command '${positionals[0]}' (commands: info)` : "name a bench command: info");
        const out = [];
        if (values["db-dir"] !== undefined || values.questions !== undefined) {
            if (positionals.length > 1)
                throw new UsageError("give DIR, or --questions FILE --db-dir DIR, not both");
            if (values["db-dir"] === undefined || values.questions === undefined)
                throw new UsageError("--questions FILE and --db-dir DIR go together");
            const b = await loadQuestionFile(path.resolve(io.cwd, values.questions), path.resolve(io.cwd, values["db-dir"]));
            out.push(`questions:   ${b.questionsFile}`, `databases:   ${b.dbDir}`, `layout:      own data (a question file over a folder of databases)`);
            out.push(...renderSplit(summarizeBenchmark(b), ""));
        }
        else {
            if (positionals.length !== 2)
                throw new UsageError(positionals.length > 2 ? `unexpected argument '${positionals[2]}'` : "name the benchmark folder: sqlmend bench info DIR");
            const info = await describeBenchmarkDir(await resolveBenchmarkDir(positionals[1], io.env, io.cwd));
            out.push(`benchmark:   ${info.dir}`);
            out.push(`layout:      ${info.layout === "spider" ? "Spider" : "BIRD"}`);
            out.push(`splits:      ${info.splits.map((s) => s.split).join(", ")}`);
            if (info.extraFiles.length)
                out.push(`also:        ${info.extraFiles.join(", ")}`);
            for (const s of info.splits) {
                out.push("", `${s.split}: ${s.file} over ${s.dbFolder}/`);
                out.push(...renderSplit(s, "  "));
            }
        }
        io.stdout(`${out.join("\n")}\n`);
        return EXIT.ok;
    },
};
