/**
 * How structured replies are requested; "auto" tries each in turn and remembers what the server accepts. Apart from
 * tools/models.ts (LangChain's OpenAI client) so the launcher checks `--structured-method` before loading it.
 */
export const STRUCTURED_METHODS = ["auto", "jsonSchema", "functionCalling", "jsonMode", "text"] as const;
