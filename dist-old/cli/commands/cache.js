import path from "node:path";
import { UsageError, UserError, firstLineOf } from "../shared/command.js";
import { parseFlags } from "../shared/flags.js";
import { dataDir } from "../../tools/paths.js";
import { EXIT } from "../../core/exit.js";
const usage = `Usage: sqlmend cache info [--json]
       sqlmend cache clear --all | [--model NAME] [--before YYYY-MM-DD]

The caches of the data directory ($SQLMEND_HOME, else ./.sqlmend): model replies (responses.sqlite, what --cache
serves) and embedding vectors (embeddings.sqlite).

  info      where they are, their size, and per model: replies, the tokens they cost when made, first and last
  clear     remove replies, then give the space back; the next run that needs one asks the model again
    --all           every reply and vector
    --model NAME    the replies of model NAME (as the config names it), and its vectors
    --before DAY    the replies made before that day (UTC); with --model, that model's only
  A cache in Redis (--cache redis://...) is not read here: use redis-cli (keys sqlmend:*).`;
const kb = (bytes) => (bytes >= 1e6 ? `${(bytes / 1e6).toFixed(1)} MB` : `${Math.ceil(bytes / 1e3)} KB`);
export const cacheCommand = {
    name: "cache",
    usage,
    async run(argv, io) {
        const { values, positionals } = parseFlags(argv, { json: { type: "boolean" }, all: { type: "boolean" }, model: { type: "string" }, before: { type: "string" } });
        const [sub, extra] = positionals;
        if (sub !== "info" && sub !== "clear")
            throw new UsageError(sub ? `unknown cache command '${sub}' (commands: info, clear)` : "name a cache command: info or clear");
        if (extra !== undefined)
            throw new UsageError(`unexpected argument '${extra}'`);
        const { describeCacheFiles, clearCacheFiles, RESPONSE_CACHE_FILE, VECTOR_CACHE_FILE } = await import("../../tools/models/cache-files.js");
        const home = dataDir(io.env, io.cwd);
        const [responses, vectors] = [path.join(home, RESPONSE_CACHE_FILE), path.join(home, VECTOR_CACHE_FILE)];
        // A damaged or foreign file is one line, whichever step meets it.
        const guarded = (step) => {
            try {
                return step();
            }
            catch (error) {
                throw new UserError(`cannot read the caches in ${home}: ${firstLineOf(error)}`);
            }
        };
        if (sub === "info") {
            if (values.all || values.model !== undefined || values.before !== undefined)
                throw new UsageError("--all, --model and --before go with 'cache clear'");
            const info = guarded(() => describeCacheFiles(responses, vectors));
            if (values.json) {
                io.stdout(`${JSON.stringify(info, null, 2)}\n`);
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
                    for (const m of r.byModel)
                        lines.push(`  ${m.model.padEnd(width)}  ${String(m.replies).padStart(8)}  ${String(m.inputTokens).padStart(10)}  ${String(m.outputTokens).padStart(10)}  ${m.first.slice(0, 19)}   ${m.last.slice(0, 19)}`);
                }
            }
            const v = info.vectors;
            lines.push(`vector cache: ${v.file}${v.exists ? ` (${kb(v.bytes)}): ${v.vectors} vectors` : " (none yet)"}`);
            for (const m of v.byModel)
                lines.push(`  ${m.model}: ${m.vectors}`);
            if (io.env.SQLMEND_CACHE && /^rediss?:\/\//i.test(io.env.SQLMEND_CACHE))
                lines.push("(SQLMEND_CACHE names a Redis cache: runs use it, not the file above)");
            io.stdout(`${lines.join("\n")}\n`);
            return EXIT.ok;
        }
        if (values.json)
            throw new UsageError("--json goes with 'cache info'");
        if (values.all && (values.model !== undefined || values.before !== undefined))
            throw new UsageError("--all removes everything: give it alone, or name --model and/or --before");
        if (!values.all && values.model === undefined && values.before === undefined)
            throw new UsageError("say what to remove: --all, --model NAME, --before YYYY-MM-DD (or both of the last two)");
        let before;
        if (values.before !== undefined) {
            const day = /^\d{4}-\d{2}-\d{2}$/.test(values.before) ? new Date(`${values.before}T00:00:00Z`) : undefined;
            if (!day || Number.isNaN(day.getTime()) || day.toISOString().slice(0, 10) !== values.before)
                throw new UsageError(`--before takes a day as YYYY-MM-DD, not '${values.before}'`);
            before = day.toISOString();
        }
        if (values.model !== undefined) {
            // A mistyped name would remove nothing and say "removed 0": name the models there are instead.
            const info = guarded(() => describeCacheFiles(responses, vectors));
            const models = [...new Set([...info.responses.byModel.map((m) => m.model), ...info.vectors.byModel.map((m) => m.model.replace(/@.*$/, ""))])];
            if (!models.includes(values.model)) {
                throw new UserError(`no model '${values.model}' in the caches of ${home}: ${models.length ? `they hold ${models.map((m) => `'${m}'`).join(", ")}` : "they hold nothing"} (sqlmend cache info lists them)`);
            }
        }
        const removed = guarded(() => clearCacheFiles(responses, vectors, { ...(values.all ? { all: true } : {}), ...(values.model !== undefined ? { model: values.model } : {}), ...(before ? { before } : {}) }));
        io.stdout(`removed ${removed.replies} replies and ${removed.vectors} vectors from ${home}${removed.compacted ? "" : " (another run has a file open, so its space was not given back yet: a later clear does)"}\n`);
        return EXIT.ok;
    },
};
