/**
 * Imports a user's module by file path (`--node SLOT=./my.ts`). A TypeScript module first registers tsx's hooks, once
 * and only then, so runs without one never pay for them.
 */
export declare function importModule(file: string): Promise<Record<string, unknown>>;
