/**
 * A benchmark directory from a path, or the name `minibench` (the project's own benchmark,
 * built once into dataDir()/minibench and rebuilt when its sources change).
 */
export declare function resolveBenchmarkDir(nameOrDir: string, env?: NodeJS.ProcessEnv, cwd?: string): Promise<string>;
