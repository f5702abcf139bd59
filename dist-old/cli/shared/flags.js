import { parseArgs } from "node:util";
import { firstLineOf, UsageError } from "../../core/errors.js";
/** parseArgs with flag errors turned into UsageError. */
export function parseFlags(argv, options) {
    try {
        return parseArgs({ args: argv, options, allowPositionals: true, strict: true });
    }
    catch (error) {
        // "--k -1": node's first line ("argument is ambiguous") hides its own advice, on a later line.
        const ambiguous = /^Option '(--[^']+)' argument is ambiguous/.exec(firstLineOf(error));
        if (ambiguous)
            throw new UsageError(`${ambiguous[1]} needs a value; one that starts with '-' is written ${ambiguous[1]}=VALUE (e.g. ${ambiguous[1]}=-1)`);
        throw new UsageError(firstLineOf(error));
    }
}
