import path from "node:path";
/** Where sqlmend keeps its own files (checkpoints, built benchmarks, run outputs): $SQLMEND_HOME or ./.sqlmend. */
export function dataDir(env = process.env, cwd = process.cwd()) {
    return path.resolve(cwd, env.SQLMEND_HOME || ".sqlmend");
}
