/**
 * The previous checkpoint format ("json+blobs"), kept so that files written by earlier versions still read: sqlmend now
 * writes "json+chunks" (./checkpoint-chunks.ts), whose serializer hands rows of this type to this one.
 *
 * A serializer for SqliteSaver that stored each large JSON subtree of a checkpoint
 * (or of a pending write) once, content-addressed, in a `blobs` table, and leaves a reference in its place.
 *
 * LangGraph writes the whole state at every step, so a schema text, the prompts of the latest calls or a long
 * candidate list would be written again at each step of a question. Here an unchanged value is the same subtree, has
 * the same hash and is stored once; a list that grows keeps its old items as references. Nothing in a graph changes:
 * the saver, `inspect`, `threads` and `--resume` see the values as they were. (LangGraph's DeltaChannel would need
 * every graph to declare its channels that way, and only covers appends.)
 *
 * Format: the row type is "json+blobs"; the JSON is JsonPlusSerializer's, with each subtree (the value itself
 * included, except a checkpoint and its channel_values, which change at every step and are deflated in their row
 * behind a leading 0 byte) of at least BLOB_MIN_CHARS characters replaced by {"$blob": hash} (hash: the first 32 hex digits of the
 * SHA-256 of the subtree's JSON, which may hold references itself). A blob is kept as text, or deflated (a BLOB)
 * when that is smaller: prompts repeat the schema's wording and shrink several times. An object of ours whose only
 * key is "$blob" or "$esc" is written as {"$esc": object}, so references cannot be forged by state values.
 */
import { createHash } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { JsonPlusSerializer } from "@langchain/langgraph-checkpoint";
export const BLOB_TYPE = "json+blobs";
/** Subtrees at least this long (as JSON) are stored apart; a reference costs 44 characters. */
export const BLOB_MIN_CHARS = 256;
const REF = "$blob";
const ESC = "$esc";
/** Blobs at least this long are deflated when that saves space. */
const DEFLATE_MIN_CHARS = 512;
// A rowid table: rows are appended in order (pages fill up), only the small hash index takes random inserts.
export const BLOBS_TABLE_SQL = "CREATE TABLE IF NOT EXISTS blobs (hash TEXT NOT NULL UNIQUE, value BLOB NOT NULL)";
const isCheckpoint = (v) => v !== null && typeof v === "object" && !Array.isArray(v) && "channel_values" in v && "channel_versions" in v;
export class BlobSerializer {
    inner = new JsonPlusSerializer();
    insert;
    select;
    /** Hashes known to be in the table (this process wrote or read them): no need to write them again. */
    stored = new Set();
    encoder = new TextEncoder();
    decoder = new TextDecoder();
    constructor(db) {
        db.exec(BLOBS_TABLE_SQL);
        this.insert = db.prepare("INSERT OR IGNORE INTO blobs (hash, value) VALUES (?, ?)");
        this.select = db.prepare("SELECT value FROM blobs WHERE hash = ?").pluck();
    }
    async dumpsTyped(data) {
        const [type, bytes] = await this.inner.dumpsTyped(data);
        if (type !== "json")
            return [type, bytes];
        const text = this.decoder.decode(bytes);
        // SqliteSaver writes a checkpoint and its metadata with one type: every JSON value gets ours.
        if (text.length < BLOB_MIN_CHARS)
            return [BLOB_TYPE, bytes];
        const value = JSON.parse(text);
        if (!isCheckpoint(value))
            return [BLOB_TYPE, this.encoder.encode(this.slim(value))];
        // A checkpoint and its channel_values are new at every step: they stay in the row (deflated), their parts go apart.
        const fields = Object.keys(value).map((k) => {
            const v = value[k];
            const inner = k === "channel_values" && v !== null && typeof v === "object" && !Array.isArray(v)
                ? `{${Object.keys(v).map((c) => `${JSON.stringify(c)}:${this.slim(v[c])}`).join(",")}}`
                : this.slim(v);
            return `${JSON.stringify(k)}:${inner}`;
        });
        const row = `{${fields.join(",")}}`;
        if (row.length < DEFLATE_MIN_CHARS)
            return [BLOB_TYPE, this.encoder.encode(row)];
        const deflated = deflateRawSync(row);
        const out = new Uint8Array(deflated.length + 1); // a leading 0 byte: JSON text never starts with one
        out.set(deflated, 1);
        return [BLOB_TYPE, out];
    }
    async loadsTyped(type, data) {
        if (type !== BLOB_TYPE)
            return this.inner.loadsTyped(type, data);
        const text = typeof data === "string" ? data : data[0] === 0 ? inflateRawSync(data.subarray(1)).toString("utf8") : this.decoder.decode(data);
        if (!text.includes(`"${REF}"`) && !text.includes(`"${ESC}"`))
            return this.inner.loadsTyped("json", text);
        const cache = new Map();
        return this.inner.loadsTyped("json", JSON.stringify(this.inflate(JSON.parse(text), cache)));
    }
    /** The JSON text of a value with its large subtrees (itself included) stored apart. */
    slim(value) {
        let text;
        if (value === null || typeof value !== "object")
            text = JSON.stringify(value);
        else if (Array.isArray(value))
            text = `[${value.map((v) => this.slim(v)).join(",")}]`;
        else {
            const keys = Object.keys(value);
            const body = `{${keys.map((k) => `${JSON.stringify(k)}:${this.slim(value[k])}`).join(",")}}`;
            text = keys.length === 1 && (keys[0] === REF || keys[0] === ESC) ? `{"${ESC}":${body}}` : body;
        }
        if (text.length < BLOB_MIN_CHARS)
            return text;
        const hash = createHash("sha256").update(text).digest("hex").slice(0, 32);
        if (!this.stored.has(hash)) {
            const deflated = text.length >= DEFLATE_MIN_CHARS ? deflateRawSync(text) : undefined;
            this.insert.run(hash, deflated && deflated.length < text.length ? deflated : text);
            this.stored.add(hash);
        }
        return `{"${REF}":"${hash}"}`;
    }
    inflate(value, cache) {
        if (value === null || typeof value !== "object")
            return value;
        if (Array.isArray(value))
            return value.map((v) => this.inflate(v, cache));
        const keys = Object.keys(value);
        if (keys.length === 1 && keys[0] === REF && typeof value[REF] === "string")
            return this.blob(value[REF], cache);
        if (keys.length === 1 && keys[0] === ESC && value[ESC] !== null && typeof value[ESC] === "object" && !Array.isArray(value[ESC])) {
            const inner = value[ESC];
            return Object.fromEntries(Object.keys(inner).map((k) => [k, this.inflate(inner[k], cache)]));
        }
        return Object.fromEntries(keys.map((k) => [k, this.inflate(value[k], cache)]));
    }
    blob(hash, cache) {
        const hit = cache.get(hash);
        if (hit !== undefined)
            return hit;
        const stored = this.select.get(hash);
        if (stored === undefined)
            throw new Error(`checkpoint refers to a value missing from the blobs table (${hash})`);
        const text = typeof stored === "string" ? stored : inflateRawSync(stored).toString("utf8");
        this.stored.add(hash);
        const value = this.inflate(JSON.parse(text), cache);
        cache.set(hash, value);
        return value;
    }
}
