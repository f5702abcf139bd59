/**
 * Dense text embeddings, the contract every consumer codes against (linking, few-shot retrieval, Memo-SQL's memory,
 * TS-SQL's value ranking). An `Embedder` comes in `NodeDeps.embeddings` only when an embedding model is configured;
 * without one, each consumer uses its lexical default and says so.
 *
 * The concrete embedder (`createOpenAIEmbedder`) calls any OpenAI-compatible `/v1/embeddings` endpoint through
 * @langchain/openai's OpenAIEmbeddings, keeps every vector on disk by text hash (`embeddings.sqlite` in the data
 * directory), counts the endpoint's tokens, and after a failure answers "unavailable" at once for a minute, so an
 * unreachable endpoint costs one timeout per run, not one per question.
 */
import { createHash } from "node:crypto";
import { OpenAIEmbeddings } from "@langchain/openai";
import { firstLineOf } from "../../core/errors.js";
/** Cosine similarity of two vectors (0 when either is all zeros). */
export function cosine(a, b) {
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let i = 0; i < Math.min(a.length, b.length); i++) {
        dot += a[i] * b[i];
        na += a[i] * a[i];
        nb += b[i] * b[i];
    }
    return na && nb ? dot / Math.sqrt(na * nb) : 0;
}
import { EMBEDDER_ROLE } from "./embedder-role.js";
import { openCacheFile } from "../sqlite/shared-file.js";
export { EMBEDDER_ROLE };
/**
 * Embeds texts for a consumer that can rank lexically instead: never throws; on failure says why in one line.
 * When the endpoint was called, one call record (role `embedder`, tokens, latency) joins the node's `calls`, so
 * embeddings count in usage like any model call. A failure is a record too: a failed call ("model call failed: …",
 * which fails the question under eval's rule), or with the embedder's `fallback` "lexical" a call marked `fallback`
 * (counted per question as `embeddingFallbacks` and in the report).
 */
export async function embedRecorded(embedder, texts) {
    try {
        if (!embedder.embedCounted)
            return { ok: true, vectors: await embedder.embed(texts), records: [] };
        const { vectors, usage } = await embedder.embedCounted(texts);
        const records = usage.calls
            ? [
                {
                    role: EMBEDDER_ROLE,
                    model: embedder.model,
                    messages: [{ role: "user", content: summarize(texts) }],
                    reply: `${texts.length} vectors (${usage.cached} from cache, ${usage.calls} ${usage.calls === 1 ? "request" : "requests"})`,
                    inputTokens: usage.inputTokens,
                    outputTokens: 0,
                    latencyMs: usage.latencyMs,
                },
            ]
            : [];
        return { ok: true, vectors, records };
    }
    catch (error) {
        const reason = firstLineOf(error);
        const attempt = { role: EMBEDDER_ROLE, model: embedder.model, messages: [{ role: "user", content: summarize(texts) }], reply: "", inputTokens: 0, outputTokens: 0, latencyMs: 0 };
        const note = `embeddings unavailable (${reason}); ranked lexically`;
        if (embedder.fallback === "lexical")
            return { ok: false, note: `${note} (--embedding-fallback lexical)`, records: [{ ...attempt, error: note, fallback: "lexical" }] };
        return { ok: false, note, records: [{ ...attempt, error: `model call failed: embeddings: ${reason}` }] };
    }
}
const summarize = (texts) => {
    const shown = texts.slice(0, 20).map((t) => (t.length > 80 ? `${t.slice(0, 79)}…` : t));
    return `embed ${texts.length} texts:\n${shown.join("\n")}${texts.length > shown.length ? `\n… ${texts.length - shown.length} more` : ""}`;
};
/** Vectors kept in memory per process (the disk keeps them all). */
const MEMORY_VECTORS = 20_000;
/** Vectors by (model, text hash) in a SQLite file of the data directory, shared by processes; memory only if it cannot open. */
class VectorCache {
    file;
    warn;
    memory = new Map();
    remember(key, vector) {
        this.memory.set(key, vector);
        if (this.memory.size > MEMORY_VECTORS)
            this.memory.delete(this.memory.keys().next().value);
    }
    db;
    get_;
    put;
    /** Said once: the first read or write the file refuses (later ones go to memory quietly, as that line says). */
    failed = false;
    constructor(file, warn) {
        this.file = file;
        this.warn = warn;
        if (!file)
            return;
        // A damaged file is set aside; a busy or unwritable one is not used: vectors then live for this process only.
        this.db = openCacheFile(file, {
            what: "vector cache",
            busyMs: 5000,
            schema: "CREATE TABLE IF NOT EXISTS vectors (model TEXT NOT NULL, hash TEXT NOT NULL, vector BLOB NOT NULL, PRIMARY KEY (model, hash)) WITHOUT ROWID",
            verify: (db) => {
                this.get_ = db.prepare("SELECT vector FROM vectors WHERE model = ? AND hash = ?").pluck();
                this.put = db.prepare("INSERT OR REPLACE INTO vectors (model, hash, vector) VALUES (?, ?, ?)");
                this.get_.get("", "");
            },
        }, (line) => warn(`${line} (vectors kept in memory for this run)`)).db;
    }
    get(model, hash) {
        const key = `${model}\u0000${hash}`;
        const hit = this.memory.get(key);
        if (hit)
            return hit;
        try {
            const blob = this.get_?.get(model, hash);
            if (!blob)
                return undefined;
            const vector = Array.from(new Float32Array(blob.buffer.slice(blob.byteOffset, blob.byteOffset + blob.byteLength)));
            this.remember(key, vector);
            return vector;
        }
        catch (error) {
            this.fail(error);
            return undefined;
        }
    }
    fail(error) {
        if (this.failed)
            return;
        this.failed = true;
        this.warn(`vector cache ${this.file} failed (${firstLineOf(error)}): vectors not found or kept there are embedded again, and kept in memory for this run`);
    }
    set(model, entries) {
        for (const [hash, vector] of entries)
            this.remember(`${model}\u0000${hash}`, vector);
        if (!this.db || !this.put)
            return;
        try {
            this.db.transaction(() => {
                for (const [hash, vector] of entries)
                    this.put.run(model, hash, Buffer.from(new Float32Array(vector).buffer));
            })();
        }
        catch (error) {
            // Busy beyond the timeout or a full disk: the vectors stay in memory.
            this.fail(error);
        }
    }
}
const hashOf = (text) => createHash("sha256").update(text).digest("hex").slice(0, 32);
/** How long a failed endpoint is left alone before it is tried again. */
const RETRY_AFTER_FAILURE_MS = 60_000;
/**
 * An Embedder on an OpenAI-compatible endpoint. `cacheFile` (usually `<data dir>/embeddings.sqlite`) keeps vectors
 * across runs; omit it for memory only.
 */
export function createOpenAIEmbedder(settings, opts = {}) {
    const env = opts.env ?? process.env;
    const cache = new VectorCache(opts.cacheFile, opts.warn ?? ((line) => void process.stderr.write(`warning: ${line}\n`)));
    // The key is the model (and an endpoint alias where the user keeps two servers apart), not the server's URL: per-node
    // servers of one model, or one restarted on another port, share their vectors. Vectors an earlier version stored
    // under the URL are still read on a miss.
    const cacheModel = settings.endpointAlias ? `${settings.model}@alias:${settings.endpointAlias}` : settings.model;
    const legacyModel = settings.endpointAlias ? undefined : `${settings.model}@${settings.baseURL ?? "openai"}`;
    let downUntil = 0;
    let downReason = "";
    async function request(texts) {
        const apiKey = env[settings.apiKeyEnv] || (settings.baseURL ? "sk-no-key" : undefined);
        if (!apiKey)
            throw new Error(`no API key for embeddings: set ${settings.apiKeyEnv}`);
        let tokens;
        let requests = 0;
        // OpenAIEmbeddings drops the usage the endpoint reports; read it from the response on its way through.
        const countingFetch = async (url, init) => {
            requests++;
            const response = await fetch(url, init);
            try {
                const body = (await response.clone().json());
                const reported = body.usage?.prompt_tokens ?? body.usage?.total_tokens;
                if (typeof reported === "number")
                    tokens = (tokens ?? 0) + reported;
            }
            catch {
                // Not JSON (an error page): nothing to count.
            }
            return response;
        };
        const client = new OpenAIEmbeddings({
            model: settings.model,
            apiKey,
            timeout: settings.timeoutMs,
            maxRetries: Math.min(settings.maxRetries, 2),
            configuration: { ...(settings.baseURL ? { baseURL: settings.baseURL } : {}), fetch: countingFetch },
        });
        const vectors = await client.embedDocuments(texts);
        if (vectors.length !== texts.length || vectors.some((v) => !Array.isArray(v) || v.length === 0)) {
            throw new Error(`the endpoint returned ${vectors.length} vectors for ${texts.length} texts`);
        }
        // Servers that report no usage: about four characters a token.
        return { vectors, tokens: tokens ?? Math.ceil(texts.reduce((n, t) => n + t.length, 0) / 4), requests: Math.max(1, requests) };
    }
    async function embedCounted(texts) {
        const hashes = texts.map(hashOf);
        const found = new Map();
        const missing = new Map();
        hashes.forEach((hash, i) => {
            if (found.has(hash) || missing.has(hash))
                return;
            const hit = cache.get(cacheModel, hash) ?? (legacyModel ? cache.get(legacyModel, hash) : undefined);
            if (hit)
                found.set(hash, hit);
            else
                missing.set(hash, texts[i]);
        });
        const usage = { calls: 0, inputTokens: 0, latencyMs: 0, cached: texts.length - [...missing.keys()].length };
        if (missing.size) {
            if (Date.now() < downUntil)
                throw new Error(downReason);
            const started = performance.now();
            try {
                const { vectors, tokens, requests } = await request([...missing.values()]);
                const fresh = [...missing.keys()].map((hash, i) => [hash, vectors[i]]);
                cache.set(cacheModel, fresh);
                for (const [hash, vector] of fresh)
                    found.set(hash, vector);
                // OpenAIEmbeddings sends 512 texts a request: each request is a call.
                usage.calls = requests;
                usage.inputTokens = tokens;
            }
            catch (error) {
                downUntil = Date.now() + RETRY_AFTER_FAILURE_MS;
                downReason = `embedding endpoint failed: ${firstLineOf(error)}`;
                throw new Error(downReason);
            }
            finally {
                usage.latencyMs = performance.now() - started;
            }
        }
        return { vectors: hashes.map((hash) => found.get(hash)), usage };
    }
    return {
        model: settings.model,
        ...(settings.fallback ? { fallback: settings.fallback } : {}),
        embedCounted,
        async embed(texts) {
            return (await embedCounted(texts)).vectors;
        },
    };
}
