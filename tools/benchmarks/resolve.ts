import path from "node:path";
import { UserError } from "../../core/errors.ts";
import { dataDir } from "../paths.ts";
import { isDir } from "./layouts.ts";
import { ensureMinibench } from "./minibench/index.ts";

/**
 * A benchmark directory from a path, or the name `minibench` (the project's own benchmark,
 * built once into dataDir()/minibench and rebuilt when its sources change).
 */
export async function resolveBenchmarkDir(
  nameOrDir: string,
  env: NodeJS.ProcessEnv = process.env,
  cwd: string = process.cwd(),
): Promise<string> {
  if (nameOrDir === "minibench") {
    const target = path.join(dataDir(env, cwd), "minibench");
    await ensureMinibench(target);
    return target;
  }
  const dir = path.resolve(cwd, nameOrDir);
  if (!isDir(dir)) throw new UserError(`${nameOrDir}: no such benchmark directory (or use the name 'minibench')`);
  return dir;
}
