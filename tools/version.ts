import fs from "node:fs";

let cached: string | undefined;
/** The version in package.json, for reports. */
export function projectVersion(): string {
  if (!cached) {
    try {
      // tools/ in the sources, dist/tools/ when compiled.
      const file = [new URL("../package.json", import.meta.url), new URL("../../package.json", import.meta.url)].find((f) => fs.existsSync(f))!;
      cached = (JSON.parse(fs.readFileSync(file, "utf8")) as { version: string }).version;
    } catch {
      cached = "unknown";
    }
  }
  return cached;
}
