import type { RunIO } from "./progress.ts";
/** Turned on while this process holds an output directory's lock (`lockOutDir`), off when it holds none. */
export declare function watchSignalsWhileLocked(on: boolean): void;
/**
 * The first stop signal (Ctrl-C, SIGTERM, SIGHUP): `stopping()` turns true (start no new work, finish what is in
 * flight, write the outputs) and `status()` is that signal's exit status. A second one: quit at once with it. Call
 * `release()` when done.
 */
export declare function gracefulInterrupt(io: RunIO, command: string): {
    stopping: () => boolean;
    status: () => number | undefined;
    release: () => void;
};
