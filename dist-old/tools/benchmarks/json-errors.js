/** Where a JSON text first goes wrong, as a line and column a user can look up. */
/** Offset of the first JSON syntax error in text (text.length for a premature end), or -1 if valid. */
export function jsonErrorOffset(text) {
    let i = 0;
    const n = text.length;
    const ws = () => {
        while (i < n && " \t\n\r".includes(text[i]))
            i++;
    };
    const fail = () => {
        throw i;
    };
    const literal = (word) => {
        if (!text.startsWith(word, i))
            fail();
        i += word.length;
    };
    const string = () => {
        i++;
        for (;;) {
            if (i >= n)
                fail();
            const c = text.charCodeAt(i);
            if (c === 0x22)
                break;
            if (c < 0x20)
                fail();
            if (c === 0x5c) {
                i++;
                if (text[i] === "u") {
                    if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 1, i + 5)))
                        fail();
                    i += 4;
                }
                else if (!'"\\/bfnrt'.includes(text[i] ?? ""))
                    fail();
            }
            i++;
        }
        i++;
    };
    const value = () => {
        ws();
        const c = text[i];
        if (c === "{") {
            i++;
            ws();
            if (text[i] === "}") {
                i++;
                return;
            }
            for (;;) {
                ws();
                if (text[i] !== '"')
                    fail();
                string();
                ws();
                if (text[i] !== ":")
                    fail();
                i++;
                value();
                ws();
                if (text[i] === ",")
                    i++;
                else if (text[i] === "}") {
                    i++;
                    return;
                }
                else
                    fail();
            }
        }
        else if (c === "[") {
            i++;
            ws();
            if (text[i] === "]") {
                i++;
                return;
            }
            for (;;) {
                value();
                ws();
                if (text[i] === ",")
                    i++;
                else if (text[i] === "]") {
                    i++;
                    return;
                }
                else
                    fail();
            }
        }
        else if (c === '"')
            string();
        else if (c === "t")
            literal("true");
        else if (c === "f")
            literal("false");
        else if (c === "n")
            literal("null");
        else {
            const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
            if (!m)
                fail();
            i += m[0].length;
        }
    };
    try {
        value();
        ws();
        return i < n ? i : -1;
    }
    catch (offset) {
        return offset;
    }
}
/** "not valid JSON at line 3, column 8 (unexpected 'S')" for a parse failure. */
export function describeJsonError(text) {
    const offset = jsonErrorOffset(text);
    if (offset < 0)
        return "not valid JSON";
    const before = text.slice(0, offset).split("\n");
    const where = `line ${before.length}, column ${before[before.length - 1].length + 1}`;
    const what = offset >= text.length ? "unexpected end of file" : `unexpected ${JSON.stringify(text[offset])}`;
    return `not valid JSON at ${where} (${what})`;
}
