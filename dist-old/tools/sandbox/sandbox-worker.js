// The sandbox's worker thread (tools/sandbox.ts): runs model-written test code in QuickJS compiled to WebAssembly.
// Plain ESM JavaScript so it loads in a worker thread without a TypeScript loader. It answers one {id, code, input,
// names, timeoutMs, memoryBytes, maxResultChars} message at a time with {id, ok, json} or {id, ok: false, kind,
// message}; `recycle` asks the host for a fresh thread (WebAssembly memory never shrinks, and an aborted instance is
// unusable). The host also terminates this thread when a run outlives its deadline: some QuickJS built-ins loop in
// C without consulting the interrupt handler (e.g. Array.prototype.indexOf over {length: 2**52}).
import { parentPort } from "node:worker_threads";
import { newQuickJSWASMModule, newVariant, RELEASE_SYNC, shouldInterruptAfterDeadline } from "quickjs-emscripten";
// Emscripten's abort texts (e.g. after a stack overflow) would land in the CLI's output: this thread prints nothing.
for (const name of ["log", "info", "warn", "error", "debug", "trace"])
    console[name] = () => { };
process.stdout.write = process.stderr.write = () => true;
// The WebAssembly memory is capped outright (QuickJS's own limit counts only its objects, and emscripten would grow
// the memory to 2 GiB): 16 MiB to start, 64 MiB at most, whatever a run's memory limit says.
const WASM_PAGE = 64 * 1024;
const WASM_PAGES = { initial: (16 * 1024 * 1024) / WASM_PAGE, maximum: (64 * 1024 * 1024) / WASM_PAGE };
let quickJs;
const loadQuickJs = () => (quickJs ??= newQuickJSWASMModule(newVariant(RELEASE_SYNC, { wasmMemory: new WebAssembly.Memory(WASM_PAGES) })));
// Error texts can be as large as the sandbox's heap: cut before any regular expression sees them.
const oneLine = (text) => String(text).slice(0, 2000).replace(/\s+/g, " ").trim().slice(0, 500);
// Runs inside QuickJS before the model's code: the tables as frozen plain data, each also as a global of its name
// when that is a valid identifier; a console that discards, so logging code does not fail.
const PRELUDE = `
"use strict";
(() => {
  const freeze = (value) => { if (value && typeof value === "object") { Object.values(value).forEach(freeze); Object.freeze(value); } return value; };
  const tables = freeze(JSON.parse(globalThis.__input));
  delete globalThis.__input;
  const names = __names;
  delete globalThis.__names;
  Object.defineProperty(globalThis, "tables", { value: tables, enumerable: false });
  for (const name of names) Object.defineProperty(globalThis, name, { value: tables[name], enumerable: false });
  globalThis.console = { log() {}, warn() {}, error() {}, info() {}, debug() {} };
  // The answer's serializer, fixed before the model's code runs (which may replace JSON.stringify). Its envelope has
  // no prototype: a toJSON the code puts on Object.prototype (Object.defineProperty) would otherwise replace the
  // envelope, e.g. forge {missing: true}; the code's own value may still have a toJSON (it is the code's answer).
  const stringify = JSON.stringify;
  // Literal syntax, not Object.create: nothing the code can replace is looked up when the answer is made.
  Object.defineProperty(globalThis, "__answer", {
    value: () =>
      typeof result === "undefined"
        ? stringify({ __proto__: null, missing: true })
        : stringify({ __proto__: null, value: result === undefined ? null : result }),
    writable: false,
    configurable: false,
    enumerable: false,
  });
})();
`;
// Runs after the model's code: the answer in `result` as one JSON string (validated on the host side).
const EPILOGUE = `__answer()`;
function describeError(error) {
    if (error && typeof error === "object" && typeof error.message === "string") {
        return oneLine(`${typeof error.name === "string" ? `${error.name}: ` : ""}${error.message}`);
    }
    return oneLine(error);
}
async function run({ code, input, names, timeoutMs, memoryBytes, maxResultChars }) {
    const QuickJS = await loadQuickJs();
    const deadline = Date.now() + timeoutMs;
    const runtime = QuickJS.newRuntime();
    runtime.setMemoryLimit(memoryBytes);
    runtime.setMaxStackSize(1024 * 1024);
    runtime.setInterruptHandler(shouldInterruptAfterDeadline(deadline));
    const vm = runtime.newContext();
    let recycle = false;
    const fail = (kind, message) => ({ ok: false, kind, message: oneLine(message) });
    // What a QuickJS exception means, by its message (interrupts and out-of-memory are plain errors in QuickJS).
    const classify = (error) => {
        const text = describeError(error);
        const timeout = () => fail("timeout", `the test code was stopped after ${timeoutMs} ms (time limit)`);
        if (/interrupted/i.test(text))
            return timeout();
        if (/out of memory|memory limit|allocation failed/i.test(text)) {
            recycle = true;
            return fail("memory", `the test code ran out of memory (limit ${Math.round(Math.min(memoryBytes, WASM_PAGES.maximum * WASM_PAGE) / 1048576)} MiB)`);
        }
        if (Date.now() >= deadline)
            return timeout();
        if (/stack overflow|call stack/i.test(text))
            return fail("error", `the test code overflowed the stack: ${text}`);
        return fail("error", text);
    };
    const evaluate = (source, filename, options) => {
        const out = vm.evalCode(source, filename, options);
        if (!out.error)
            return { value: out.value };
        const error = vm.dump(out.error);
        out.error.dispose();
        return { failure: classify(error) };
    };
    let result;
    try {
        const inputHandle = vm.newString(input);
        vm.setProp(vm.global, "__input", inputHandle);
        inputHandle.dispose();
        const namesHandle = vm.unwrapResult(vm.evalCode(JSON.stringify(names)));
        vm.setProp(vm.global, "__names", namesHandle);
        namesHandle.dispose();
        result = (() => {
            for (const [source, filename, options] of [
                [PRELUDE, "prelude.js", undefined],
                [code, "test-code.js", { type: "global", strict: false }],
            ]) {
                const step = evaluate(source, filename, options);
                if (step.failure)
                    return step.failure;
                step.value.dispose();
            }
            const out = evaluate(EPILOGUE, "epilogue.js");
            if (out.failure)
                return out.failure;
            // Read the length before copying the string out, so a huge answer is refused without crossing over.
            const lengthHandle = vm.getProp(out.value, "length");
            const length = vm.getNumber(lengthHandle);
            lengthHandle.dispose();
            if (!(length <= maxResultChars)) {
                out.value.dispose();
                return fail("shape", `the result is too large (${length} characters of JSON; limit ${maxResultChars})`);
            }
            const json = vm.getString(out.value);
            out.value.dispose();
            return { ok: true, json };
        })();
    }
    catch (error) {
        result = classify(error);
    }
    finally {
        try {
            vm.dispose();
            runtime.dispose();
        }
        catch {
            // QuickJS may abort while freeing a runtime left in a bad state (e.g. after a stack overflow).
            recycle = true;
        }
    }
    return recycle ? { ...result, recycle } : result;
}
parentPort.on("message", async (job) => {
    let result;
    try {
        result = await run(job);
    }
    catch (error) {
        result = { ok: false, kind: "error", message: `the sandbox failed: ${oneLine(error?.message ?? error)}`, recycle: true };
    }
    parentPort.postMessage({ id: job.id, ...result });
});
