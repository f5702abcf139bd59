/**
 * Secrets never leave the process: a password in a URL given on the command line (`--checkpoints postgres://…`,
 * `--cache redis://…`) is masked wherever text is shown or written — printed lines, report command lines, run.json.
 */
/** `scheme://user:password@host` anywhere in `text`, with the password as `***`. */
export const maskSecrets = (text) => text.replace(/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]*):[^\s@/]+@/gi, "$1:***@");
/** The command line as shown in reports (`sqlmend eval --bench …`), its secrets masked. */
export const commandLine = (command, argv) => maskSecrets(`sqlmend ${command} ${argv.join(" ")}`);
