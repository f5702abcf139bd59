import type { RunIO } from "./progress.ts";
import { STOP_SIGNALS, type StopSignal } from "../../core/exit.ts";

// Stopping a run on Ctrl-C, SIGTERM or SIGHUP; the statuses themselves live with the other exit statuses (core/exit.ts).

const stopSignals = Object.keys(STOP_SIGNALS) as StopSignal[];

/** Loops listening for stop signals now (`gracefulInterrupt`): while one is, the lock's handler leaves them the signal. */
let gracefulLoops = 0;

/**
 * While this process holds a lock and no loop over questions listens: a stop signal (before the loop starts, or while
 * the outputs are written) exits at once with its status, through `process.exit`, so the exit hook releases the lock
 * (a signal's default action would skip it and leave run.lock behind).
 */
const onSignalWhileLocked = (signal: StopSignal) => {
  if (gracefulLoops > 0) return;
  process.exit(STOP_SIGNALS[signal]);
};
let lockSignalsSet = false;
/** Turned on while this process holds an output directory's lock (`lockOutDir`), off when it holds none. */
export function watchSignalsWhileLocked(on: boolean): void {
  if (on === lockSignalsSet) return;
  lockSignalsSet = on;
  for (const signal of stopSignals) on ? process.on(signal, onSignalWhileLocked) : process.off(signal, onSignalWhileLocked);
}

/**
 * The first stop signal (Ctrl-C, SIGTERM, SIGHUP): `stopping()` turns true (start no new work, finish what is in
 * flight, write the outputs) and `status()` is that signal's exit status. A second one: quit at once with it. Call
 * `release()` when done.
 */
export function gracefulInterrupt(io: RunIO, command: string): { stopping: () => boolean; status: () => number | undefined; release: () => void } {
  let received: StopSignal | undefined;
  const onSignal = (signal: StopSignal) => {
    if (received) process.exit(STOP_SIGNALS[signal]);
    received = signal;
    const how = signal === "SIGINT" ? "Ctrl-C again to quit now" : `${signal} received; a second signal quits now`;
    io.stderr(`\nsqlmend ${command}: stopping after the work in flight (${how}; --resume continues the run)\n`);
  };
  gracefulLoops++;
  for (const signal of stopSignals) process.on(signal, onSignal);
  let released = false;
  return {
    stopping: () => received !== undefined,
    status: () => (received ? STOP_SIGNALS[received] : undefined),
    release: () => {
      if (released) return;
      released = true;
      gracefulLoops--;
      for (const signal of stopSignals) process.off(signal, onSignal);
    },
  };
}
