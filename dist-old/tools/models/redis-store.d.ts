import type { ReplyStore, StoredEntry } from "./response-cache.ts";
/** Where the replies live in Redis (the occurrence counters are `sqlmend:uses:…`): all of sqlmend's keys match `sqlmend:*`. */
export declare const REPLY_PREFIX = "sqlmend:reply:";
export declare const isRedisLocation: (spec: string | undefined) => spec is string;
export declare class RedisReplyStore implements ReplyStore {
    private readonly url;
    private readonly warn;
    readonly file: string;
    broken: string | undefined;
    private readonly client;
    private readonly replies;
    constructor(url: string, warn: (line: string) => void);
    private readonly unregister;
    private slot;
    get(key: string, occurrence: number): Promise<StoredEntry | undefined>;
    nextOccurrence(scope: string, key: string): Promise<number | undefined>;
    put(key: string, occurrence: number, entry: StoredEntry, overwrite: boolean): Promise<boolean>;
    private fail;
    close(): void;
}
/** One connection per Redis URL while a command runs (its providers share it); the launcher closes it at the end. */
export declare function openRedisStore(url: string, warn: (line: string) => void): RedisReplyStore;
