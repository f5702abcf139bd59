/** Writes `file` whole or not at all (a kill mid-write leaves the old one). */
export declare function writeAtomically(file: string, text: string): void;
/**
 * Reads a JSON-lines file of finished work through `parse`. A kill can leave a half-written last line and a resumed
 * run may have repeated one: when the parsed lines differ from the file, the file is rewritten clean (atomically).
 */
export declare function readJsonLines<T>(file: string, parse: (text: string) => T[], serialize?: (item: T) => string): T[];
