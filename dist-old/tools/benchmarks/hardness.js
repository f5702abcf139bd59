import { tokenizeSql } from "../sql-tokens.js";
/** Spider's eval_hardness thresholds over the three counts. */
export function hardnessFromCounts({ component1: c1, component2: c2, others: o }) {
    if (c1 <= 1 && o === 0 && c2 === 0)
        return "easy";
    if ((o <= 2 && c1 <= 1 && c2 === 0) || (c1 <= 2 && o < 2 && c2 === 0))
        return "medium";
    if ((o > 2 && c1 <= 2 && c2 === 0) || (c1 > 2 && c1 <= 3 && o <= 2 && c2 === 0) || (c1 <= 1 && o === 0 && c2 <= 1)) {
        return "hard";
    }
    return "extra";
}
const AGGS = new Set(["max", "min", "count", "sum", "avg"]);
const SET_OPS = new Set(["union", "intersect", "except"]);
const CLAUSES = ["select", "from", "where", "group", "having", "order", "limit"];
function significant(sql) {
    const toks = tokenizeSql(sql)
        .filter((t) => t.type !== "ws" && t.type !== "comment")
        .map((t) => ({ lower: t.lower, type: t.type, match: -1 }));
    const stack = [];
    toks.forEach((t, i) => {
        if (t.type !== "punct")
            return;
        if (t.lower === "(")
            stack.push(i);
        else if (t.lower === ")" && stack.length) {
            const open = stack.pop();
            toks[open].match = i;
            t.match = open;
        }
    });
    return toks;
}
const isWord = (t, ...words) => t?.type === "word" && words.includes(t.lower);
const isPunct = (t, p) => t?.type === "punct" && t.lower === p;
/** A parenthesised subquery starts here: "(" followed by SELECT (or more "(" then SELECT). */
const opensSubquery = (toks, i) => {
    let j = i;
    while (isPunct(toks[j], "("))
        j++;
    return j > i && isWord(toks[j], "select", "with", "values");
};
/** Index after the token at i, jumping over a parenthesised group. */
const next = (toks, i) => (isPunct(toks[i], "(") && toks[i].match > i ? toks[i].match + 1 : i + 1);
const COMPARISONS = new Set(["=", "==", "<", ">", "<=", ">=", "!=", "<>"]);
const isComparison = (t) => (t.type === "punct" && COMPARISONS.has(t.lower)) || (t.type === "word" && t.lower === "like");
const NOT_COLUMN = new Set(["select", "not", "null", "case", "exists", "true", "false"]);
const VALUE_STOPS = ["and", "select", "from", "where", "group", "order", "limit", "intersect", "union", "except", "join", "on", "as"];
/**
 * Counts over one condition (ON / WHERE / HAVING). Spider's parser only knows flat
 * conditions; we also look inside non-subquery parentheses (where Spider's parser would fail).
 */
function countCondition(toks, start, end) {
    const c = { conds: 0, connectors: 0, or: 0, like: 0, not: 0, nested: 0 };
    if (start >= end)
        return c;
    const betweens = [0];
    let caseDepth = 0;
    for (let i = start; i < end; i++) {
        const t = toks[i];
        if (isPunct(t, "(")) {
            if (opensSubquery(toks, i)) {
                c.nested++;
                i = Math.max(i, Math.min(t.match, end - 1));
                continue;
            }
            betweens.push(0);
            continue;
        }
        if (isPunct(t, ")")) {
            if (betweens.length > 1)
                betweens.pop();
            continue;
        }
        if (caseDepth === 0 && isComparison(t) && toks[i + 1]?.type === "word" && !NOT_COLUMN.has(toks[i + 1].lower) && !isPunct(toks[i + 2], "(")) {
            // Spider's parse_value reads a column value up to the next ',', ')', AND or clause/join
            // keyword, so an OR (and the conditions after it) following `a = b.c` is not counted.
            if (t.lower === "like")
                c.like++;
            let j = i + 1;
            while (j < end && !isPunct(toks[j], ",") && !isPunct(toks[j], ")") && !isWord(toks[j], ...VALUE_STOPS))
                j = next(toks, j);
            i = j - 1;
            continue;
        }
        if (t.type !== "word")
            continue;
        if (t.lower === "case")
            caseDepth++;
        else if (t.lower === "end" && caseDepth > 0)
            caseDepth--;
        if (caseDepth > 0)
            continue;
        const top = betweens.length - 1;
        if (t.lower === "between")
            betweens[top]++;
        else if (t.lower === "and" || t.lower === "or") {
            if (t.lower === "and" && betweens[top] > 0)
                betweens[top]--;
            else {
                c.connectors++;
                if (t.lower === "or")
                    c.or++;
            }
        }
        else if (t.lower === "like")
            c.like++;
        else if (t.lower === "not" && !isWord(toks[i - 1], "is"))
            c.not++;
    }
    c.conds = c.connectors + 1;
    return c;
}
/** Aggregate calls in a range, not looking into subqueries. */
function countAggCalls(toks, start, end) {
    let n = 0;
    for (let i = start; i < end; i++) {
        if (isPunct(toks[i], "(") && opensSubquery(toks, i)) {
            i = Math.max(i, toks[i].match);
            continue;
        }
        if (toks[i].type === "word" && AGGS.has(toks[i].lower) && isPunct(toks[i + 1], "("))
            n++;
    }
    return n;
}
/** Splits a range at top-level commas. */
function splitCommas(toks, start, end) {
    const parts = [];
    let from = start;
    for (let i = start; i < end; i = next(toks, i)) {
        if (isPunct(toks[i], ",")) {
            parts.push([from, i]);
            from = i + 1;
        }
    }
    if (from < end)
        parts.push([from, end]);
    return parts;
}
/** Spider's three counts for the query in toks[start, end), computed the way evaluation.py counts its parse. */
function countsFor(toks, start, end) {
    // Unwrap "( ... )" around the whole query.
    while (isPunct(toks[start], "(") && toks[start].match === end - 1) {
        start++;
        end--;
    }
    // Skip a leading WITH clause: its CTE bodies are parenthesised and so ignored below.
    let i = start;
    if (isWord(toks[i], "with")) {
        while (i < end && !isWord(toks[i], "select"))
            i = next(toks, i);
    }
    // Clause positions at this level; the first set operator ends the main query.
    const at = {};
    let setOp = false;
    let mainEnd = end;
    for (; i < end; i = next(toks, i)) {
        const t = toks[i];
        if (t.type !== "word")
            continue;
        if (SET_OPS.has(t.lower)) {
            setOp = true;
            mainEnd = i;
            break;
        }
        if (t.lower === "group" || t.lower === "order") {
            if (!isWord(toks[i + 1], "by"))
                continue;
        }
        if (CLAUSES.includes(t.lower) && at[t.lower] === undefined) {
            at[t.lower] = i;
        }
    }
    const starts = CLAUSES.map((k) => at[k]).filter((v) => v !== undefined);
    const range = (k) => {
        const s = at[k];
        if (s === undefined)
            return undefined;
        const after = starts.filter((v) => v > s);
        const skip = k === "group" || k === "order" ? 2 : 1;
        return [s + skip, after.length ? Math.min(...after) : mainEnd];
    };
    let component1 = 0;
    let component2 = setOp ? 1 : 0;
    let aggs = 0;
    let others = 0;
    // SELECT: item count; an item counts as aggregated when it starts with an aggregate call.
    const sel = range("select");
    if (sel) {
        let [s, e] = sel;
        if (isWord(toks[s], "distinct", "all"))
            s++;
        const items = splitCommas(toks, s, e);
        aggs += items.filter(([a]) => AGGS.has(toks[a].lower) && toks[a].type === "word" && isPunct(toks[a + 1], "(")).length;
        if (items.length > 1)
            others++;
    }
    // FROM: each JOIN (or comma) adds a table unit; ON conditions count for OR / LIKE / nesting.
    const from = range("from");
    if (from) {
        const [s, e] = from;
        let units = 1;
        let on = -1;
        const closeOn = (stop) => {
            if (on < 0)
                return;
            const c = countCondition(toks, on, stop);
            component1 += c.or + c.like;
            component2 += c.nested;
            on = -1;
        };
        for (let j = s; j < e; j = next(toks, j)) {
            if (isWord(toks[j], "join") || isPunct(toks[j], ",")) {
                closeOn(j);
                units++;
            }
            else if (isWord(toks[j], "on")) {
                closeOn(j);
                on = j + 1;
            }
        }
        closeOn(e);
        component1 += units - 1;
    }
    // WHERE: a NOT condition counts as an aggregation (evaluation.py checks cond_unit[0], the not flag).
    const where = range("where");
    if (where) {
        const c = countCondition(toks, where[0], where[1]);
        component1 += 1 + c.or + c.like;
        component2 += c.nested;
        aggs += c.not;
        if (c.conds > 1)
            others++;
    }
    const group = range("group");
    if (group) {
        component1++;
        const items = splitCommas(toks, group[0], group[1]);
        if (items.length > 1)
            others++;
    }
    // HAVING: evaluation.py's count_agg over the whole condition list counts every AND/OR (a string)
    // and every NOT condition; aggregates inside HAVING conditions are not counted.
    const having = range("having");
    if (having) {
        const c = countCondition(toks, having[0], having[1]);
        component1 += c.or + c.like;
        component2 += c.nested;
        aggs += c.connectors + c.not;
    }
    const order = range("order");
    if (order) {
        component1++;
        aggs += countAggCalls(toks, order[0], order[1]);
    }
    if (at.limit !== undefined)
        component1++;
    if (aggs > 1)
        others++;
    return { component1, component2, others };
}
/** Spider's three hardness counts from the SQL text (tokenizer-based; see spiderHardness). */
export function spiderHardnessCounts(sql) {
    const toks = significant(sql);
    let end = toks.length;
    while (end > 0 && isPunct(toks[end - 1], ";"))
        end--;
    return countsFor(toks, 0, end);
}
/**
 * Spider's hardness (easy / medium / hard / extra) of a gold query, computed from tokens the way
 * Spider's evaluation.py counts components of its own parse (count_component1/2, count_others),
 * quirks included: a NOT condition in WHERE and every AND/OR in HAVING count as aggregations, an
 * OR after a column-valued comparison is not seen. Agrees with the official script on all 972 Spider
 * dev and 6,903 train queries it can parse. Where it may differ: queries Spider's parser rejects
 * (parenthesised boolean groups, IS NOT NULL, subqueries in SELECT, comma joins) get a sensible
 * count here instead of a crash; aggregates are recognised by name followed by "(".
 */
export function spiderHardness(sql) {
    return hardnessFromCounts(spiderHardnessCounts(sql));
}
/**
 * Spider's hardness for the questions with gold and no difficulty (own data or another question file scored with
 * Spider semantics), as the Spider layout computes it. Returns how many got one.
 */
export function addSpiderHardness(bench) {
    let added = 0;
    for (const q of bench.questions) {
        if (q.difficulty || !q.goldSql)
            continue;
        q.difficulty = spiderHardness(q.goldSql);
        added++;
    }
    return added;
}
