import { tokenizeSql } from "./sql-tokens.js";
const KEYWORDS = new Set(`select from where group by having order limit offset join inner left right full outer cross natural on using as and or
  not in is null like glob between exists case when then else end distinct all union intersect except with recursive asc
  desc cast collate escape over partition rows range filter values true false current_date current_time current_timestamp
  integer real numeric varchar`.split(/\s+/).filter(Boolean));
export function sqlSkeleton(sql, options = {}) {
    const mask = (options.identifiers ?? "mask") === "mask";
    const tokens = tokenizeSql(sql).filter((t) => t.type !== "ws" && t.type !== "comment");
    const out = [];
    const fn = [];
    for (let i = 0; i < tokens.length; i++) {
        const token = tokens[i];
        const next = tokens[i + 1];
        let text;
        if (token.type === "string" || token.type === "number" || token.type === "param")
            text = "?";
        else if (token.type === "word" && KEYWORDS.has(token.lower))
            text = token.lower.toUpperCase();
        else if (token.type === "word" && next?.text === "(")
            text = token.lower;
        else if (token.type === "word" || token.type === "qident")
            text = mask ? "_" : token.type === "word" ? token.lower : token.text;
        else
            text = token.text;
        // A qualified name (T1.col, "t"."c") is one identifier.
        if (mask && text === "_" && out.at(-1) === "." && out.at(-2) === "_") {
            out.pop();
            fn.pop();
            continue;
        }
        if (text === "?" && out.at(-1) === "-" && /^[(,=<>]|^$|^(SELECT|WHERE|AND|OR|THEN|ELSE|WHEN|LIMIT|OFFSET|BETWEEN|IN)$/.test(out.at(-2) ?? "")) {
            out.pop(); // -5 is one literal
            fn.pop();
        }
        out.push(text);
        fn.push(token.type === "word" && next?.text === "(" && !KEYWORDS.has(token.lower));
    }
    let rendered = "";
    out.forEach((text, i) => {
        const glued = i === 0 || text === ")" || text === "," || text === "." || out[i - 1] === "(" || out[i - 1] === "." || (text === "(" && fn[i - 1]);
        rendered += glued ? text : ` ${text}`;
    });
    return rendered;
}
