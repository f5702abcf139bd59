import type { Command } from "../shared/command.ts";
import { UsageError } from "../shared/command.ts";
import { configFromFlags, flagTableOf } from "../shared/flag-config.ts";
import { parseFlags } from "../shared/flags.ts";
import { defineConfig } from "../../core/config.ts";
import { CACHE_CLEAR_CONFIG, cacheInfo, clearCaches } from "../../runner/cache/cache-files.ts";
import { EXIT } from "../../core/exit.ts";

const usage = `Usage: sqlmend cache info [--json]
       sqlmend cache clear --all | [--model NAME] [--before YYYY-MM-DD]

The caches of the data directory ($SQLMEND_HOME, else ./.sqlmend): model replies (responses.sqlite, what --cache
serves) and embedding vectors (embeddings.sqlite).

  info      where they are, their size, and per model: replies, the tokens they cost when made, first and last
  clear     remove replies, then give the space back; the next run that needs one asks the model again
    --all           every reply and vector
    --model NAME    the replies of model NAME (as the config names it), and its vectors
    --before DAY    the replies made before that day (UTC); with --model, that model's only
  A cache in Redis (--cache redis://...) is not read here: use redis-cli (keys sqlmend:*).
From a script: cacheInfo() and cacheClear({ all, model, before }) return the same as data.`;

const CLI_FLAGS = defineConfig({ json: { type: "boolean", help: "print the caches as JSON (info)" }, ...CACHE_CLEAR_CONFIG });

const kb = (bytes: number) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.ceil(bytes / 1e3)} KB`);

export const cacheCommand: Command = {
  name: "cache",
  usage,
  async run(argv, io) {
    const { values, positionals } = parseFlags(argv, flagTableOf(CLI_FLAGS));
    const [sub, extra] = positionals;
    if (sub !== "info" && sub !== "clear") throw new UsageError(sub ? `unknown cache command '${sub}' (commands: info, clear)` : "name a cache command: info or clear");
    if (extra !== undefined) throw new UsageError(`unexpected argument '${extra}'`);
    const { json, ...clear } = configFromFlags(CLI_FLAGS, values);

    if (sub === "info") {
      if (Object.keys(clear).length) throw new UsageError("--all, --model and --before go with 'cache clear'");
      const info = await cacheInfo(io);
      if (json) {
        const { dir: _dir, redisInUse: _redis, ...files } = info;
        io.stdout(`${JSON.stringify(files, null, 2)}\n`);
        return EXIT.ok;
      }
      const r = info.responses;
      const lines = [`response cache: ${r.file}${r.exists ? ` (${kb(r.bytes)})` : " (none yet)"}`];
      if (r.exists) {
        const tokens = r.byModel.reduce((n, m) => n + m.inputTokens + m.outputTokens, 0);
        lines.push(`  ${r.replies} replies from ${r.threads} threads; ${tokens} tokens they cost when made`);
        if (r.byModel.length) {
          const width = Math.max(5, ...r.byModel.map((m) => m.model.length));
          lines.push(`  ${"model".padEnd(width)}  ${"replies".padStart(8)}  ${"input tok".padStart(10)}  ${"output tok".padStart(10)}  first (UTC)           last (UTC)`);
          for (const m of r.byModel) lines.push(`  ${m.model.padEnd(width)}  ${String(m.replies).padStart(8)}  ${String(m.inputTokens).padStart(10)}  ${String(m.outputTokens).padStart(10)}  ${m.first.slice(0, 19)}   ${m.last.slice(0, 19)}`);
        }
      }
      const v = info.vectors;
      lines.push(`vector cache: ${v.file}${v.exists ? ` (${kb(v.bytes)}): ${v.vectors} vectors` : " (none yet)"}`);
      for (const m of v.byModel) lines.push(`  ${m.model}: ${m.vectors}`);
      if (info.redisInUse) lines.push("(SQLMEND_CACHE names a Redis cache: runs use it, not the file above)");
      io.stdout(`${lines.join("\n")}\n`);
      return EXIT.ok;
    }

    if (json) throw new UsageError("--json goes with 'cache info'");
    const removed = await clearCaches(clear, io);
    io.stdout(`removed ${removed.replies} replies and ${removed.vectors} vectors from ${removed.dir}${removed.compacted ? "" : " (another run has a file open, so its space was not given back yet: a later clear does)"}\n`);
    return EXIT.ok;
  },
};
