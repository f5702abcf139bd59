/** Which saver a `--checkpoints` location names, without loading any: PostgreSQL URLs, "memory", else a SQLite file. */
export declare const isPostgresLocation: (spec: string | undefined) => spec is string;
/** The URL without its password, for messages, reports and run.json. */
export declare function redactUrl(url: string): string;
