import path from "node:path";
import { UserError } from "../../core/errors.js";
import { dataDir } from "../paths.js";
import { isDir } from "./layouts.js";
import { ensureMinibench } from "./minibench/index.js";
/**
 * A benchmark directory from a path, or the name `minibench` (the project's own benchmark,
 * built once into dataDir()/minibench and rebuilt when its sources change).
 */
export async function resolveBenchmarkDir(nameOrDir, env = process.env, cwd = process.cwd()) {
    if (nameOrDir === "minibench") {
        const target = path.join(dataDir(env, cwd), "minibench");
        await ensureMinibench(target);
        return target;
    }
    const dir = path.resolve(cwd, nameOrDir);
    if (!isDir(dir))
        throw new UserError(`${nameOrDir}: no such benchmark directory (or use the name 'minibench')`);
    return dir;
}
