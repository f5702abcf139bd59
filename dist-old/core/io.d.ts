/**
 * Where a run prints and what it runs in: the launcher passes the terminal's, a test a capture, a script the process's
 * own (`defaultIO`). Every run function of the library takes one, so nothing below the CLI writes to the console.
 */
export interface CliIO {
    stdout: (text: string) => void;
    stderr: (text: string) => void;
    env: NodeJS.ProcessEnv;
    cwd: string;
    /** True when stderr is a terminal (progress bars redraw in place). */
    isTTY?: boolean;
}
/** The process's own streams, environment and working directory. */
export declare const defaultIO: () => CliIO;
/** Prints nothing (a script that wants only the returned figures). */
export declare const quietIO: (base?: Partial<CliIO>) => CliIO;
