/**
 * Secrets never leave the process: a password in a URL given on the command line (`--checkpoints postgres://…`,
 * `--cache redis://…`) is masked wherever text is shown or written — printed lines, report command lines, run.json.
 */
/** `scheme://user:password@host` anywhere in `text`, with the password as `***`. */
export declare const maskSecrets: (text: string) => string;
/** The command line as shown in reports (`sqlmend eval --bench …`), its secrets masked. */
export declare const commandLine: (command: string, argv: string[]) => string;
