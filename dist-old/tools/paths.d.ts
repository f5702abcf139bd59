/** Where sqlmend keeps its own files (checkpoints, built benchmarks, run outputs): $SQLMEND_HOME or ./.sqlmend. */
export declare function dataDir(env?: NodeJS.ProcessEnv, cwd?: string): string;
