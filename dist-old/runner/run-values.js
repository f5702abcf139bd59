import { UsageError } from "../core/errors.js";
import { flagOf } from "../core/options.js";
import { commandLine } from "../core/secrets.js";
/**
 * The run API's options (camelCase names of a command's flags, typed values) as the command's flag values: what the
 * launcher would have parsed from the same command line, so a script and the launcher run the very same code. A name
 * the command does not take is an error naming it; `options` holds the graph's own options (camelCase, as the graph
 * declares them); a record value (`node: { generate: "./my.ts" }`, `roleModel: { critic: "gpt-4o" }`) becomes
 * `NAME=VALUE` items of a repeatable flag.
 */
export function flagValuesOf(api, given, table, graphOptions = {}) {
    const values = {};
    const put = (key, flag, value, known) => {
        if (value === undefined)
            return;
        if (!known)
            throw new UsageError(`${api}: unknown option '${key}'`);
        if (known.type === "boolean") {
            if (typeof value !== "boolean")
                throw new UsageError(`${api}: ${key} takes true or false, not ${JSON.stringify(value)}`);
            values[flag] = value;
            return;
        }
        const items = isRecord(value) ? Object.entries(value).map(([k, v]) => `${k}=${scalar(key, v)}`) : Array.isArray(value) ? value.map((v) => scalar(key, v)) : [scalar(key, value)];
        values[flag] = known.multiple ? items : Array.isArray(value) ? items.join(",") : items[0];
    };
    for (const [key, value] of Object.entries(given)) {
        if (key === "options")
            continue;
        put(key, flagOf(key), value, table[flagOf(key)]);
    }
    for (const [key, value] of Object.entries(graphOptions)) {
        const flag = flagOf(key);
        if (value === false && table[flag]?.type === "boolean")
            continue;
        put(`options.${key}`, flag, value, table[flag]);
    }
    return values;
}
const isRecord = (value) => !!value && typeof value === "object" && !Array.isArray(value);
function scalar(key, value) {
    if (typeof value === "string" || typeof value === "number" || typeof value === "bigint")
        return String(value);
    throw new UsageError(`option '${key}' takes text or a number, not ${JSON.stringify(value)}`);
}
/**
 * The command line that does what these values do (`sqlmend eval r3 --bench … --limit 5`), secrets masked: what
 * report.md shows as the run's command, whether the launcher or a script started it.
 */
export function commandLineOf(command, positionals, values) {
    const argv = [...positionals];
    for (const [flag, value] of Object.entries(values)) {
        if (value === undefined || value === false)
            continue;
        if (value === true)
            argv.push(`--${flag}`);
        else
            for (const item of Array.isArray(value) ? value : [value])
                argv.push(`--${flag}`, /[\s"'$]/.test(item) ? JSON.stringify(item) : item);
    }
    return commandLine(command, argv);
}
