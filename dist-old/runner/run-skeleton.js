import path from "node:path";
import { codeIdentity } from "../tools/version.js";
import { fallbackNotes } from "./progress.js";
import { benchmarkFromFlags } from "./run-dir-flags.js";
import { prepareOutDir, questionHashes } from "./run-file.js";
import { selectQuestions } from "./selection.js";
export async function runQuestionsOf(values, io, defaultSplit, limit) {
    const { bench, source, benchDir } = await benchmarkFromFlags(values, io, defaultSplit);
    const { questions, skipped } = selectQuestions(bench, values.ids, limit);
    return { bench, source, benchDir, split: bench.split, questions, skipped };
}
export async function inRunFolder(command, values, io, body) {
    const outDir = path.resolve(io.cwd, values.out);
    const { notes, warn } = fallbackNotes(io, command);
    // The checkpoint store (and with it LangGraph's savers) loads once the run's flags have passed their checks.
    const { openReadyCheckpointer } = await import("../storage/checkpoints.js");
    const checkpoints = await openReadyCheckpointer(values.checkpoints, io.env, io.cwd, { onDamagedFile: warn });
    const code = await codeIdentity();
    let release = () => { };
    try {
        return await body({
            outDir,
            notes,
            warn,
            checkpoints,
            claim(record, keys, identity) {
                const file = prepareOutDir(outDir, record, values.resume ?? false, keys, {
                    command,
                    io,
                    identity: { code, questions: questionHashes(identity.questions) },
                    ...(identity.refresh ? { refresh: identity.refresh } : {}),
                });
                release = file.release;
                return file;
            },
        });
    }
    finally {
        release();
        checkpoints.close();
    }
}
