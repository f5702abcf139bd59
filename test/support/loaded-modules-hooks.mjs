// Hooks of loaded-modules.mjs (they run in node's hooks thread).
import fs from "node:fs";

let file;
export function initialize(data) {
  file = data.file;
}
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  fs.appendFileSync(file, `${result.url}\n`);
  return result;
}
