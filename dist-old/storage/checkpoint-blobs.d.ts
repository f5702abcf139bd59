import type Database from "better-sqlite3";
import type { SerializerProtocol } from "@langchain/langgraph-checkpoint";
export declare const BLOB_TYPE = "json+blobs";
/** Subtrees at least this long (as JSON) are stored apart; a reference costs 44 characters. */
export declare const BLOB_MIN_CHARS = 256;
export declare const BLOBS_TABLE_SQL = "CREATE TABLE IF NOT EXISTS blobs (hash TEXT NOT NULL UNIQUE, value BLOB NOT NULL)";
export declare class BlobSerializer implements SerializerProtocol {
    private readonly inner;
    private readonly insert;
    private readonly select;
    /** Hashes known to be in the table (this process wrote or read them): no need to write them again. */
    private readonly stored;
    private readonly encoder;
    private readonly decoder;
    constructor(db: Database.Database);
    dumpsTyped(data: unknown): Promise<[string, Uint8Array]>;
    loadsTyped(type: string, data: Uint8Array | string): Promise<unknown>;
    /** The JSON text of a value with its large subtrees (itself included) stored apart. */
    private slim;
    private inflate;
    private blob;
}
