/**
 * How structured replies are requested; "auto" tries each in turn and remembers what the server accepts. Apart from
 * tools/models.ts (LangChain's OpenAI client) so the launcher checks `--structured-method` before loading it.
 */
/**
 * Replies a structured ask gets at most by default (`callStructured`'s `maxAttempts`): the first and its re-asks.
 * With method "auto", a server refusing a format adds a call per refused format (at most 3, remembered per role and
 * model for the rest of the process).
 */
export const STRUCTURED_MAX_ATTEMPTS = 3;
export const STRUCTURED_METHODS = ["auto", "jsonSchema", "functionCalling", "jsonMode", "text"];
