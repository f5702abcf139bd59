/**
 * A string with its own characters. A slice of a larger string (SQL cut from a model's reply, a piece of a schema
 * text) keeps its whole parent alive for as long as it is kept; what outlives its question (a memo key, a run's
 * record) is copied, so it keeps only itself.
 */
export const ownCopy = (text: string): string => (text.length < 13 ? text : ` ${text}`.slice(1));
