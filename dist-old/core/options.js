import { UsageError } from "./errors.js";
/** Keeps the literal types of a declaration (choices, defaults) so `readOptions` is precisely typed. */
export const defineOptions = (defs) => defs;
/** `maxReviewTurns` → `max-review-turns`. */
export const flagOf = (key) => key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
/** The declared options' values from a graph's build options, defaults filled in (for nodes and graph files). */
export function readOptions(defs, options) {
    const out = {};
    for (const [key, def] of Object.entries(defs)) {
        const value = options?.[key];
        out[key] = value === undefined ? (def.type === "list" ? [...def.default] : def.default) : value;
    }
    return out;
}
/** parseArgs declarations for every option of the given graphs. */
export function optionFlags(defsList) {
    const flags = {};
    for (const defs of defsList) {
        for (const [key, def] of Object.entries(defs))
            flags[flagOf(key)] = { type: def.type === "boolean" ? "boolean" : "string" };
    }
    return flags;
}
/** Parses and validates one option's flag value; undefined when the flag was not given. */
export function parseOption(key, def, raw) {
    if (raw === undefined)
        return undefined;
    const flag = `--${flagOf(key)}`;
    switch (def.type) {
        case "boolean":
            return Boolean(raw);
        case "int":
        case "number": {
            const n = Number(raw);
            const whole = def.type === "int";
            if (String(raw).trim() === "" || !Number.isFinite(n) || (whole && !Number.isInteger(n))) {
                throw new UsageError(`${flag} takes ${whole ? "a whole number" : "a number"}, not '${raw}'`);
            }
            if (def.min !== undefined && n < def.min)
                throw new UsageError(`${flag} takes a number >= ${def.min}, not '${raw}'`);
            if (def.max !== undefined && n > def.max)
                throw new UsageError(`${flag} takes a number <= ${def.max}, not '${raw}'`);
            return n;
        }
        case "choice":
            if (!def.choices.includes(String(raw)))
                throw new UsageError(`${flag} takes ${def.choices.join(", ")}; not '${raw}'`);
            return String(raw);
        case "list": {
            const items = String(raw).split(",").map((s) => s.trim()).filter(Boolean);
            if (!items.length)
                throw new UsageError(`${flag} takes a comma-separated list, not '${raw}'`);
            return items;
        }
        case "string":
            if (String(raw).trim() === "")
                throw new UsageError(`${flag} takes a value`);
            return String(raw);
    }
}
/** The `--help` lines of a graph's options. */
export function optionsUsage(title, defs) {
    const entries = Object.entries(defs ?? {});
    if (!entries.length)
        return "";
    const lefts = entries.map(([key, def]) => {
        const flag = `--${flagOf(key)}`;
        if (def.type === "boolean")
            return flag;
        if (def.type === "choice")
            return `${flag} ${def.choices.join("|")}`;
        if (def.type === "int")
            return `${flag} N`;
        if (def.type === "number")
            return `${flag} X`;
        return `${flag} ${def.metavar ?? (def.type === "list" ? "A,B,..." : "VALUE")}`;
    });
    const width = Math.max(26, ...lefts.map((l) => l.length + 2));
    const lines = entries.map(([, def], i) => {
        const shown = def.type === "list" ? def.default.join(",") : def.default;
        const dflt = def.type === "boolean" || shown === undefined || shown === "" ? "" : ` (default ${shown})`;
        return `  ${lefts[i].padEnd(width)}${def.help}${dflt}`;
    });
    return `${title}:\n${lines.join("\n")}`;
}
