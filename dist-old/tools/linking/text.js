/** Text helpers of linking: normalisation, words, numbers and dates, bounded edit distance. */
/** Lower case, accents folded, whitespace squashed; punctuation kept (dates and codes need it). */
export function normalize(text) {
    return text
        .normalize("NFKD")
        .replace(/[\u0300-\u036f]/g, "")
        .toLowerCase()
        .replace(/\s+/g, " ")
        .trim();
}
/** Words of a normalised text: split on spaces, surrounding punctuation stripped ("(JetBlue)," → "jetblue"). */
export function wordsOf(normalized) {
    const out = [];
    for (const raw of normalized.split(" ")) {
        const word = raw.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "");
        if (word)
            out.push(word);
    }
    return out;
}
/** A number as written in a question: 42, -3.5, 1,200 (a keyword that must match exactly, never "nearly"). */
export const isNumber = (text) => /^[-+]?(\d{1,3}(,\d{3})+|\d+)(\.\d+)?$/.test(text.trim());
/** 1,200 → 1200; other text unchanged. */
export const plainNumber = (text) => (isNumber(text) ? text.trim().replace(/,/g, "").replace(/^\+/, "") : text);
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
/**
 * Dates written in words or with slashes, in the form databases store them (YYYY-MM-DD, or YYYY-MM): "March 4, 2015",
 * "4 March 2015", "2015/03/04" → "2015-03-04". Undefined when the text is not such a date.
 */
export function isoDate(text) {
    const t = normalize(text).replace(/(\d)(st|nd|rd|th)\b/g, "$1").replace(/,/g, " ").replace(/\s+/g, " ").trim();
    const pad = (n) => n.padStart(2, "0");
    const month = (name) => {
        const at = MONTHS.findIndex((m) => m.startsWith(name.replace(/\.$/, "")) && name.length >= 3);
        return at < 0 ? undefined : pad(String(at + 1));
    };
    let m = /^(\d{4})[/.](\d{1,2})[/.](\d{1,2})$/.exec(t);
    if (m)
        return `${m[1]}-${pad(m[2])}-${pad(m[3])}`;
    m = /^([a-z.]+) (\d{1,2}) (\d{4})$/.exec(t);
    if (m && month(m[1]))
        return `${m[3]}-${month(m[1])}-${pad(m[2])}`;
    m = /^(\d{1,2}) ([a-z.]+) (\d{4})$/.exec(t);
    if (m && month(m[2]))
        return `${m[3]}-${month(m[2])}-${pad(m[1])}`;
    m = /^([a-z.]+) (\d{4})$/.exec(t);
    if (m && month(m[1]))
        return `${m[2]}-${month(m[1])}`;
    return undefined;
}
/**
 * Edit distance of a and b — insertions, deletions, substitutions and swaps of neighbouring letters ("Frnace" is one
 * edit from "France"; optimal string alignment) — divided by the longer length, or Infinity as soon as it must exceed
 * `max` (a banded computation: candidates far from the keyword cost little).
 */
export function normalizedEditDistance(a, b, max = 1) {
    if (a === b)
        return 0;
    const longer = Math.max(a.length, b.length);
    if (!longer)
        return 0;
    const limit = Math.floor(max * longer + 1e-9);
    if (Math.abs(a.length - b.length) > limit)
        return Infinity;
    if (a.length > b.length)
        [a, b] = [b, a];
    let before = new Uint32Array(a.length + 1);
    let previous = new Uint32Array(a.length + 1);
    let current = new Uint32Array(a.length + 1);
    for (let i = 0; i <= a.length; i++)
        previous[i] = i;
    let previousMin = 0;
    for (let j = 1; j <= b.length; j++) {
        current[0] = j;
        let rowMin = j;
        const bj = b.charCodeAt(j - 1);
        for (let i = 1; i <= a.length; i++) {
            const ai = a.charCodeAt(i - 1);
            let value = Math.min(previous[i] + 1, current[i - 1] + 1, previous[i - 1] + (ai === bj ? 0 : 1));
            if (i > 1 && j > 1 && ai === b.charCodeAt(j - 2) && a.charCodeAt(i - 2) === bj)
                value = Math.min(value, before[i - 2] + 1);
            current[i] = value;
            if (value < rowMin)
                rowMin = value;
        }
        // A swap jumps over one row, never two: stop when two rows in a row are past the limit.
        if (rowMin > limit && previousMin > limit)
            return Infinity;
        previousMin = rowMin;
        [before, previous, current] = [previous, current, before];
    }
    const distance = previous[a.length];
    return distance > limit ? Infinity : distance / longer;
}
export const STOPWORDS = new Set(`a an the of in on at to for from by with and or not no is are was were be been being what which who whom whose how
  many much list give show find return all each every any that this these those there their its it as than then have
  has had do does did please me tell name names number numbers count total average per among between more most less
  least top highest lowest greater larger smaller than over under into out up down only also both either neither
  i we you they he she them his her our your my when where why whether if else can could would should will shall
  may might must about above below after before during while same other such own so too very just`.split(/\s+/));
