export { defaultIO } from "../../core/io.js";
export { firstLineOf, UsageError, UserError } from "../../core/errors.js";
export { commandLine, maskSecrets } from "../../core/secrets.js";
