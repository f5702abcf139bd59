import fs from "node:fs";

// Files of a run that a kill must not corrupt.

/** Writes `file` whole or not at all (a kill mid-write leaves the old one). */
export function writeAtomically(file: string, text: string): void {
  const tmp = `${file}.tmp`;
  fs.writeFileSync(tmp, text);
  fs.renameSync(tmp, file);
}

/**
 * Reads a JSON-lines file of finished work through `parse`. A kill can leave a half-written last line and a resumed
 * run may have repeated one: when the parsed lines differ from the file, the file is rewritten clean (atomically).
 */
export function readJsonLines<T>(file: string, parse: (text: string) => T[], serialize: (item: T) => string = (item) => JSON.stringify(item)): T[] {
  if (!fs.existsSync(file)) return [];
  const text = fs.readFileSync(file, "utf8");
  const items = parse(text);
  const clean = items.map((item) => `${serialize(item)}\n`).join("");
  if (clean !== text) writeAtomically(file, clean);
  return items;
}
