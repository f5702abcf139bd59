/**
 * SQL worker processes a command will want, by name: bin/sqlmend.js starts them before it loads the launcher (they
 * boot while its modules load: Node reads ES modules one level of imports at a time), and main() tops them up.
 * Imports nothing, so the launcher reads it at once.
 */
export const SQL_WORKERS: Readonly<Record<string, number | "cpus">> = { exec: 1, score: "cpus" };
