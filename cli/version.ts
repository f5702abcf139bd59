import fs from "node:fs";

let cached: string | undefined;
/** The version in package.json, for reports. */
export function projectVersion(): string {
  if (!cached) {
    try {
      cached = (JSON.parse(fs.readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string }).version;
    } catch {
      cached = "unknown";
    }
  }
  return cached;
}
