/** Text helpers of linking: normalisation, words, numbers and dates, bounded edit distance. */
/** Lower case, accents folded, whitespace squashed; punctuation kept (dates and codes need it). */
export declare function normalize(text: string): string;
/** Words of a normalised text: split on spaces, surrounding punctuation stripped ("(JetBlue)," → "jetblue"). */
export declare function wordsOf(normalized: string): string[];
/** A number as written in a question: 42, -3.5, 1,200 (a keyword that must match exactly, never "nearly"). */
export declare const isNumber: (text: string) => boolean;
/** 1,200 → 1200; other text unchanged. */
export declare const plainNumber: (text: string) => string;
/**
 * Dates written in words or with slashes, in the form databases store them (YYYY-MM-DD, or YYYY-MM): "March 4, 2015",
 * "4 March 2015", "2015/03/04" → "2015-03-04". Undefined when the text is not such a date.
 */
export declare function isoDate(text: string): string | undefined;
/**
 * Edit distance of a and b — insertions, deletions, substitutions and swaps of neighbouring letters ("Frnace" is one
 * edit from "France"; optimal string alignment) — divided by the longer length, or Infinity as soon as it must exceed
 * `max` (a banded computation: candidates far from the keyword cost little).
 */
export declare function normalizedEditDistance(a: string, b: string, max?: number): number;
export declare const STOPWORDS: Set<string>;
