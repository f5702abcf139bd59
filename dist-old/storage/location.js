/** Which saver a `--checkpoints` location names, without loading any: PostgreSQL URLs, "memory", else a SQLite file. */
export const isPostgresLocation = (spec) => !!spec && /^postgres(ql)?:\/\//i.test(spec);
/** The URL without its password, for messages, reports and run.json. */
export function redactUrl(url) {
    try {
        const parsed = new URL(url);
        if (parsed.password)
            parsed.password = "***";
        return parsed.toString();
    }
    catch {
        return url.replace(/\/\/([^:/@]+):[^@]*@/, "//$1:***@");
    }
}
