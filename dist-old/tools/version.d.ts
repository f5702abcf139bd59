/** The version in package.json, for reports. */
export declare function projectVersion(): string;
/**
 * What sqlmend's own code is: the package version and a sha256 over its sources (every file under the source roots
 * of bin/freshness.js), or, in an installed package without sources, the digest its build recorded. run.json records
 * it and `--resume` refuses a run started by other code (a prompt edited in between mixes two methods in one run).
 */
export interface CodeIdentity {
    version: string;
    /** sha256 of the sources (`of: "sources"`), or the digest the build recorded or of dist/ itself (`of: "build"`). */
    sha256: string;
    of: "sources" | "build";
}
/** This process's code identity (`root`: another copy of the package, for tests), computed once per root (~5-35 ms). */
export declare function codeIdentity(root?: string | undefined): Promise<CodeIdentity>;
/** "0.1.0, sources sha256 1a2b3c4d5e6f7081": how messages and reports name a code identity. */
export declare function describeCode(code: CodeIdentity | undefined | null): string;
/**
 * A module a run loads from the user (`--node SLOT=MODULE`, and `--graph FILE` the same way) as run.json records it:
 * where it was and the sha256 of its bytes. `--resume` compares the hash, not the path, so the module or the run
 * folder may move but not change. Only the named file is hashed: helpers it imports from other files are not.
 */
export declare function moduleIdentity(file: string): {
    path: string;
    sha256: string;
};
