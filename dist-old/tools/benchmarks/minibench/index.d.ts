export declare const MINIBENCH_DATABASES: readonly ["school", "shop", "music"];
/** Hash of every source file (scripts, questions, descriptions, this builder). */
export declare function minibenchSourceHash(): Promise<string>;
/** Writes the whole minibench layout (BIRD style) into targetDir, overwriting what is there. */
export declare function buildMinibench(targetDir: string): Promise<void>;
/**
 * Builds minibench unless targetDir already holds a build of the current sources.
 *
 * Every interleaving of concurrent callers (threads of one process or several processes) is safe, and readers never
 * see a missing or half-built benchmark: each caller builds in a temp directory of its own, then renames it to
 * `.<name>-builds/<source hash>`. rename(2) refuses a non-empty destination, so exactly one build of a hash lands;
 * the losers keep the winner's and delete only their own temp. targetDir is a symlink to that build, replaced by
 * renaming a new symlink over it (atomic), so nobody ever deletes a finished build in use.
 */
export declare function ensureMinibench(targetDir: string): Promise<void>;
