/**
 * A small token diff for SQL (the question page's gold / initial / final SQL): longest common subsequence over
 * words, numbers, quoted strings and punctuation, whitespace kept with the token before it. Past `MAX_TOKENS` a side
 * is diffed by lines instead (said in `coarse`), so a huge SQL string cannot make the page quadratic.
 */

export interface DiffPart {
  op: "same" | "del" | "ins";
  text: string;
}

export const MAX_TOKENS = 1500;

/** SQL as tokens; joining them gives the text back. */
export function sqlTokens(sql: string): string[] {
  return sql.match(/'(?:[^']|'')*'?|"(?:[^"]|"")*"?|`[^`]*`?|\[[^\]]*\]?|\w+|\s+|[^\w\s]/g) ?? [];
}

function lcsDiff(a: string[], b: string[]): DiffPart[] {
  // Common prefix and suffix first: most corrections change a few tokens in the middle.
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length, endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) { endA--; endB--; }
  const midA = a.slice(start, endA), midB = b.slice(start, endB);
  const n = midA.length, m = midB.length;
  const table = Array.from({ length: n + 1 }, () => new Uint32Array(m + 1));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) table[i]![j] = midA[i] === midB[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const parts: DiffPart[] = [];
  const push = (op: DiffPart["op"], text: string) => {
    const last = parts.at(-1);
    if (last && last.op === op) last.text += text;
    else if (text) parts.push({ op, text });
  };
  push("same", a.slice(0, start).join(""));
  let i = 0, j = 0;
  while (i < n && j < m) {
    if (midA[i] === midB[j]) { push("same", midA[i]!); i++; j++; }
    else if (table[i + 1]![j]! >= table[i]![j + 1]!) push("del", midA[i++]!);
    else push("ins", midB[j++]!);
  }
  while (i < n) push("del", midA[i++]!);
  while (j < m) push("ins", midB[j++]!);
  push("same", a.slice(endA).join(""));
  return parts;
}

/**
 * Joins changes split only by whitespace (`name` `, ` `age` matched on the space): each run of changes becomes one
 * deletion then one insertion, so the diff reads by phrase, not by token.
 */
function coalesce(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let del = "", ins = "";
  const flush = () => {
    if (del) out.push({ op: "del", text: del });
    if (ins) out.push({ op: "ins", text: ins });
    del = ins = "";
  };
  parts.forEach((p, i) => {
    const between = p.op === "same" && /^\s+$/.test(p.text) && (del || ins) && parts[i + 1] && parts[i + 1]!.op !== "same";
    if (p.op === "del") del += p.text;
    else if (p.op === "ins") ins += p.text;
    else if (between) { del += p.text; ins += p.text; }
    else { flush(); out.push(p); }
  });
  flush();
  return out;
}

/** What turns `before` into `after`, token by token (by line past MAX_TOKENS: `coarse`). */
export function diffSql(before: string, after: string): { parts: DiffPart[]; coarse: boolean } {
  const a = sqlTokens(before), b = sqlTokens(after);
  if (a.length <= MAX_TOKENS && b.length <= MAX_TOKENS) return { parts: coalesce(lcsDiff(a, b)), coarse: false };
  const la = before.split(/(?<=\n)/), lb = after.split(/(?<=\n)/);
  if (la.length <= MAX_TOKENS && lb.length <= MAX_TOKENS) return { parts: lcsDiff(la, lb), coarse: true };
  return { parts: [{ op: "del", text: before }, { op: "ins", text: after }], coarse: true };
}
