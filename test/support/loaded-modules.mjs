// `node --import ./test/support/loaded-modules.mjs ...`: appends every module this process loads to the file named by
// $SQLMEND_LOADED_MODULES, a URL a line: ES modules as the resolve hook sees them (written at once, from the hooks
// thread), CommonJS ones from require's cache at exit (nested require() calls bypass ES module hooks).
import fs from "node:fs";
import { createRequire, register } from "node:module";

const file = process.env.SQLMEND_LOADED_MODULES;
if (file) {
  register("./loaded-modules-hooks.mjs", import.meta.url, { data: { file } });
  const cache = createRequire(import.meta.url).cache;
  process.on("exit", () => fs.appendFileSync(file, Object.keys(cache).map((p) => `file://${p}\n`).join("")));
}
