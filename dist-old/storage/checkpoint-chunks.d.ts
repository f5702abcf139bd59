import type Database from "better-sqlite3";
import type { RunnableConfig } from "@langchain/core/runnables";
import type { Checkpoint, CheckpointListOptions, CheckpointMetadata, CheckpointTuple, PendingWrite, SerializerProtocol } from "@langchain/langgraph-checkpoint";
import { SqliteSaver } from "@langchain/langgraph-checkpoint-sqlite";
export declare const CHUNK_TYPE = "json+chunks";
/** Subtrees at least this long (as JSON, their own large parts already references) become chunks: a reference costs
 * about 10 characters here and a chunk row about 25 bytes, and a value that persists is then written once, not in every
 * write and frame that holds it. */
export declare const REF_MIN = 64;
/** Strings at least this long are cut into pieces. */
export declare const SPLIT_MIN = 1024;
/** At most this many frames in a chain (then one stands alone). */
export declare const FRAME_CHAIN = 16;
export declare const CHUNKS_TABLE_SQL: string;
/** A string cut after lines whose hash ends in two zero bits, pieces between PIECE_MIN and PIECE_MAX when lines allow. */
export declare function splitPieces(text: string): string[];
export declare class ChunkSerializer implements SerializerProtocol {
    private readonly inner;
    private readonly db;
    private readonly insert;
    private readonly byHash;
    private readonly byId;
    /** Chunk ids by content, for what this process wrote or found: an unchanged value costs a map lookup, no hashing. */
    private readonly known;
    /** Long strings and their pieces' encoding (the schema text comes back at every step). */
    private readonly splits;
    /** What the current value's writes taught, kept once they commit (a rolled-back chunk must not be referred to). */
    private learnt;
    /** Chunks of the current value. */
    private readonly fresh;
    /** Whether this value's writes opened a transaction. */
    private opened;
    private readonly begin;
    private readonly commit;
    private readonly rollback;
    /** Frame texts by id, for reads (a history reads each chain once). */
    private readonly frames;
    /** The latest frame written per thread and namespace (the next one's dictionary). */
    private readonly latest;
    private legacy;
    private readonly encoder;
    private readonly decoder;
    /**
     * The thread (and namespace) whose checkpoint SqliteSaver.put is serializing: frames chain within it. Set around
     * put's synchronous start, where it calls dumpsTyped; a call that finds it unset writes a plain row (no frame).
     */
    thread: string | undefined;
    constructor(db: Database.Database);
    dumpsTyped(data: unknown): Promise<[string, Uint8Array]>;
    private encode;
    /** Adds a chunk row; the first of a value opens its transaction, unless it is also the last (then it commits alone). */
    private write;
    loadsTyped(type: string, data: Uint8Array | string): Promise<unknown>;
    /** A checkpoint's JSON with its channel values' large parts as references; the rest (versions) stays for the delta. */
    private slimCheckpoint;
    /** JSON text of a value, its parts of at least REF_MIN characters (itself too, when `refs`) as references. */
    private slim;
    private split;
    /** The id of a chunk holding this text: found by hash and content, or added. */
    private chunk;
    /** A chunk is TEXT as written, or a BLOB deflated. */
    private chunkText;
    private stored;
    private frameText;
    /** The value with its references resolved; a chunk refers only to earlier chunks (`below`), so no cycle reads. */
    private expand;
}
/** The channel of one write row that holds all the writes of a task ([channel, value] pairs, in order). */
export declare const PACKED_WRITES = "__sqlmend_writes__";
/**
 * SqliteSaver with the chunk serializer, storing the ordinary writes of one task in one row: a row carries two ids of
 * 36 characters, the thread id and an index entry repeating them, more than most written values. Special writes
 * (errors, interrupts, resumes, Send tasks) keep their own rows, as SqliteSaver's reads and replaces rely on them.
 * Reads unpack, so LangGraph sees the pending writes as they were written.
 */
export declare class LightSqliteSaver extends SqliteSaver {
    private readonly chunks;
    constructor(db: Database.Database);
    put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<RunnableConfig>;
    putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void>;
    getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined>;
    list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple>;
}
/**
 * SqliteSaver's tables (same columns and keys; its setup then finds them), created WITHOUT ROWID in a new file: the rows
 * are small (values live in chunks), and a rowid table would keep every key twice, in the rows and in the index of
 * its primary key. Files that have the tables keep them as they are.
 */
export declare function createTables(db: Database.Database): void;
