/**
 * A sandbox for model-written JavaScript (TS-SQL's test code): QuickJS compiled to WebAssembly.
 *
 * The code runs in a fresh QuickJS runtime per call. It sees plain data only: the test tables are passed in as one
 * JSON string and parsed inside, so no host object, function or prototype ever crosses over. The QuickJS build has
 * no std/os modules, no module loader, no timers and no console of the host: there is nothing to reach a file,
 * the network or the process with. A CPU deadline (interrupt handler), a memory limit and a stack limit bound the
 * run; the answer comes back as one JSON string, capped in size and validated here into a fixed shape.
 *
 * QuickJS runs in a worker thread (./sandbox-worker.js), not on the calling thread: some built-ins loop in C
 * without consulting the interrupt handler (Array.prototype.indexOf over {length: 2**52} never returns), so the host
 * keeps its own deadline and terminates the thread; a memory bomb's grown WebAssembly memory goes with its thread.
 * Runs are serial, one thread per process.
 */
import { Worker } from "node:worker_threads";
export const SANDBOX_DEFAULTS = { timeoutMs: 1000, memoryBytes: 16 * 1024 * 1024, maxResultChars: 1_000_000, maxRows: 10_000 };
const oneLine = (text) => String(text).slice(0, 2000).replace(/\s+/g, " ").trim().slice(0, 500);
const isIdentifier = (name) => /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(name);
const WORKER_URL = new URL("./sandbox-worker.js", import.meta.url);
/** Time the host allows past the run's own deadline before it terminates the thread. */
const HOST_GRACE_MS = 500;
/** The worker thread's V8 heap (the tables' JSON and the answer pass through it; QuickJS's heap is its own limit). */
const WORKER_LIMITS = { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 };
/** One worker thread running sandbox jobs one at a time; replaced when a run hangs, bombs or crashes it. */
class SandboxThread {
    worker;
    queue = [];
    current;
    nextId = 1;
    run(message) {
        return new Promise((resolve) => {
            const id = this.nextId++;
            this.queue.push({ id, message: { ...message, id }, resolve });
            this.pump();
        });
    }
    spawn() {
        // Plain JavaScript: no loader flags of the host (--import tsx, --input-type, ...) are passed on.
        const worker = new Worker(WORKER_URL, { resourceLimits: WORKER_LIMITS, execArgv: [] });
        worker.on("message", (reply) => this.finish(reply.id, reply, Boolean(!reply.ok && reply.recycle)));
        // The thread died (out of its V8 heap, or crashed): the job it ran fails, the next one gets a fresh thread.
        worker.on("error", (error) => this.failCurrent(worker, /memory|heap/i.test(error.message) ? "memory" : "error", `the sandbox thread failed: ${oneLine(error.message)}`));
        worker.on("exit", () => this.failCurrent(worker, "error", "the sandbox thread exited"));
        // After the listeners (adding a "message" listener refs the thread again): an idle thread never keeps the
        // process alive; a running job's host deadline timer does.
        worker.unref();
        return worker;
    }
    pump() {
        if (this.current)
            return;
        const job = this.queue.shift();
        if (!job)
            return;
        this.worker ??= this.spawn();
        // The host's own deadline, from dispatch: the thread's interrupt handler should have stopped the run already.
        const timer = setTimeout(() => {
            this.finish(job.id, { id: job.id, ok: false, kind: "timeout", message: `the test code was stopped after ${job.message.timeoutMs} ms (time limit)` }, true);
        }, job.message.timeoutMs + HOST_GRACE_MS);
        this.current = { job, timer };
        this.worker.postMessage(job.message);
    }
    finish(id, reply, recycle) {
        if (!this.current || this.current.job.id !== id)
            return;
        clearTimeout(this.current.timer);
        const { job } = this.current;
        this.current = undefined;
        if (recycle)
            this.discard();
        job.resolve(reply);
        this.pump();
    }
    failCurrent(worker, kind, message) {
        if (worker !== this.worker)
            return;
        this.worker = undefined;
        if (this.current)
            this.finish(this.current.job.id, { id: this.current.job.id, ok: false, kind, message }, false);
    }
    discard() {
        const worker = this.worker;
        this.worker = undefined;
        void worker?.terminate();
    }
}
let thread;
/**
 * Runs test code over test tables. The code reads `tables.<name>` (or the table's name as a global: arrays of row
 * objects) and assigns its answer to a top-level `result`: an array of row objects (columns are the first row's
 * keys, in order), an array of arrays, or a single scalar (one row, one column). Never throws for bad code.
 */
export async function runSandboxed(code, tables, options = {}) {
    const timeoutMs = options.timeoutMs ?? SANDBOX_DEFAULTS.timeoutMs;
    const memoryBytes = options.memoryBytes ?? SANDBOX_DEFAULTS.memoryBytes;
    const maxResultChars = options.maxResultChars ?? SANDBOX_DEFAULTS.maxResultChars;
    const maxRows = options.maxRows ?? SANDBOX_DEFAULTS.maxRows;
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    const reply = await (thread ??= new SandboxThread()).run({
        code,
        input: JSON.stringify(tables),
        names: Object.keys(tables).filter(isIdentifier),
        timeoutMs,
        memoryBytes,
        maxResultChars,
    });
    if (!reply.ok)
        return { ok: false, kind: reply.kind, message: oneLine(reply.message), elapsedMs: elapsed() };
    return toRows(reply.json, maxRows, elapsed);
}
const isScalar = (v) => v === null || typeof v === "string" || typeof v === "boolean" || (typeof v === "number" && Number.isFinite(v));
/** The answer in the fixed shape {columns, rows} of JSON scalars, or why it does not fit. */
function toRows(json, maxRows, elapsed) {
    const bad = (message) => ({ ok: false, kind: "shape", message, elapsedMs: elapsed() });
    const parsed = JSON.parse(json);
    if (parsed.missing)
        return bad("the code did not assign `result`");
    const value = parsed.value;
    if (isScalar(value))
        return { ok: true, columns: ["result"], rows: [[value]], elapsedMs: elapsed() };
    if (!Array.isArray(value))
        return bad("`result` must be an array of row objects, an array of arrays, or a single value");
    if (value.length > maxRows)
        return bad(`the result has ${value.length} rows (limit ${maxRows})`);
    if (value.length === 0)
        return { ok: true, columns: [], rows: [], elapsedMs: elapsed() };
    const first = value[0];
    if (Array.isArray(first)) {
        const width = first.length;
        const rows = [];
        for (const [i, row] of value.entries()) {
            if (!Array.isArray(row) || row.length !== width)
                return bad(`row ${i} of \`result\` is not an array of ${width} values`);
            if (!row.every(isScalar))
                return bad(`row ${i} of \`result\` holds a value that is not a number, string, boolean or null`);
            rows.push(row);
        }
        return { ok: true, columns: first.map((_, i) => `col${i + 1}`), rows, elapsedMs: elapsed() };
    }
    if (first && typeof first === "object") {
        const columns = Object.keys(first);
        if (!columns.length)
            return bad("the first row of `result` has no columns");
        const rows = [];
        for (const [i, row] of value.entries()) {
            if (!row || typeof row !== "object" || Array.isArray(row))
                return bad(`row ${i} of \`result\` is not an object`);
            const cells = columns.map((c) => row[c] ?? null);
            if (!cells.every(isScalar))
                return bad(`row ${i} of \`result\` holds a value that is not a number, string, boolean or null`);
            rows.push(cells);
        }
        return { ok: true, columns, rows, elapsedMs: elapsed() };
    }
    if (value.every(isScalar))
        return { ok: true, columns: ["result"], rows: value.map((v) => [v]), elapsedMs: elapsed() };
    return bad("`result` must be an array of row objects, an array of arrays, or a single value");
}
