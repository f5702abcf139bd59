import path from "node:path";
import { type ConfigInput, type ConfigOf, checkConfig, defineConfig, inApiWords, opt, optionUsageError } from "../../core/config.ts";
import { firstLineOf, UserError } from "../../core/errors.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import type { CacheFilesInfo } from "../../tools/models/cache-files.ts";
import { dataDir } from "../../tools/paths.ts";

// `sqlmend cache info|clear` as functions: the data directory's reply and vector caches described, or part of them
// removed. The cache module (better-sqlite3) loads on use.

/** `cacheClear`'s options: what to remove (all, or a model's and/or what was made before a day). */
export const CACHE_CLEAR_CONFIG = defineConfig({
  all: { type: "boolean", help: "every reply and vector" },
  model: { type: "string", metavar: "NAME", help: "the replies of model NAME (as the config names it), and its vectors" },
  before: { type: "string", metavar: "DAY", help: "the replies made before that day (UTC), YYYY-MM-DD; with model, that model's only" },
});

export type CacheClearConfig = ConfigOf<typeof CACHE_CLEAR_CONFIG>;
export type CacheClearOptions = ConfigInput<typeof CACHE_CLEAR_CONFIG>;

/** The caches of the data directory: where it is, each file's size and per-model counts. */
export type CacheInfo = CacheFilesInfo & {
  /** The data directory ($SQLMEND_HOME, else ./.sqlmend). */
  dir: string;
  /** SQLMEND_CACHE names a Redis cache: runs use it, not these files (not read here). */
  redisInUse: boolean;
};

/** What `cacheClear` removed; `compacted` false when another process had a file open (a later clear gives the space back). */
export interface CacheClearResult {
  dir: string;
  replies: number;
  vectors: number;
  compacted: boolean;
}


async function cacheFiles(io: Pick<CliIO, "env" | "cwd">) {
  const files = await import("../../tools/models/cache-files.ts");
  const dir = dataDir(io.env, io.cwd);
  // A damaged or foreign file is one line, whichever step meets it.
  const guarded = <T>(step: () => T): T => {
    try {
      return step();
    } catch (error) {
      throw new UserError(`cannot read the caches in ${dir}: ${firstLineOf(error)}`);
    }
  };
  return { files, dir, responses: path.join(dir, files.RESPONSE_CACHE_FILE), vectors: path.join(dir, files.VECTOR_CACHE_FILE), guarded };
}

/** What the data directory's caches hold (`sqlmend cache info`). */
export async function cacheInfo(io: Pick<CliIO, "env" | "cwd"> = defaultIO()): Promise<CacheInfo> {
  const { files, dir, responses, vectors, guarded } = await cacheFiles(io);
  const info = guarded(() => files.describeCacheFiles(responses, vectors));
  return { dir, ...info, redisInUse: !!io.env.SQLMEND_CACHE && /^rediss?:\/\//i.test(io.env.SQLMEND_CACHE) };
}

/** Removes replies and vectors (`sqlmend cache clear`); the next run that needs one asks the model again. */
export async function cacheClear(options: CacheClearOptions, io: Pick<CliIO, "env" | "cwd"> = defaultIO()): Promise<CacheClearResult> {
  return inApiWords("cacheClear", () => clearCaches(checkConfig("cacheClear", CACHE_CLEAR_CONFIG, options), io));
}

/** The body `cacheClear` and the launcher share, on a checked config. */
export async function clearCaches(config: CacheClearConfig, io: Pick<CliIO, "env" | "cwd">): Promise<CacheClearResult> {
  if (config.all && (config.model !== undefined || config.before !== undefined)) throw optionUsageError`${opt("all")} removes everything: give it alone, or name ${opt("model")} and/or ${opt("before")}`;
  if (!config.all && config.model === undefined && config.before === undefined) {
    throw optionUsageError`say what to remove: ${opt("all")}, ${opt("model")} NAME, ${opt("before")} YYYY-MM-DD (or both of the last two)`;
  }
  let before: string | undefined;
  if (config.before !== undefined) {
    const day = /^\d{4}-\d{2}-\d{2}$/.test(config.before) ? new Date(`${config.before}T00:00:00Z`) : undefined;
    if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== config.before) throw optionUsageError`${opt("before")} takes a day as YYYY-MM-DD, not '${config.before}'`;
    before = day.toISOString();
  }
  const { files, dir, responses, vectors, guarded } = await cacheFiles(io);
  if (config.model !== undefined) {
    // A mistyped name would remove nothing and say "removed 0": name the models there are instead.
    const info = guarded(() => files.describeCacheFiles(responses, vectors));
    const models = [...new Set([...info.responses.byModel.map((m) => m.model), ...info.vectors.byModel.map((m) => m.model.replace(/@.*$/, ""))])];
    if (!models.includes(config.model)) {
      throw new UserError(`no model '${config.model}' in the caches of ${dir}: ${models.length ? `they hold ${models.map((m) => `'${m}'`).join(", ")}` : "they hold nothing"} (sqlmend cache info lists them)`);
    }
  }
  const removed = guarded(() => files.clearCacheFiles(responses, vectors, { ...(config.all ? { all: true } : {}), ...(config.model !== undefined ? { model: config.model } : {}), ...(before ? { before } : {}) }));
  return { dir, ...removed };
}
