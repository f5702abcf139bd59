/** The process's own streams, environment and working directory. */
export const defaultIO = () => ({
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    env: process.env,
    cwd: process.cwd(),
    isTTY: process.stderr.isTTY,
});
/** Prints nothing (a script that wants only the returned figures). */
export const quietIO = (base = {}) => ({ stdout: () => { }, stderr: () => { }, env: process.env, cwd: process.cwd(), ...base });
