import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { runSandboxed, type TestTables } from "../tools/sandbox/sandbox.ts";
import { Worker } from "node:worker_threads";

const tables: TestTables = {
  schools: [
    { id: 1, name: "Alpha", status: "Active", score: 500 },
    { id: 2, name: "Beta", status: "Closed", score: 620 },
    { id: 3, name: "Gamma", status: "Active", score: 580 },
  ],
};

/** Every escape attempt must fail inside the sandbox, with a clear message, and leave the host as it was. */
async function blocked(code: string, opts = {}) {
  const before = { proto: Object.prototype.toString, keys: Object.keys(globalThis).length };
  const result = await runSandboxed(code, tables, opts);
  expect(Object.prototype.toString).toBe(before.proto);
  expect(Object.keys(globalThis).length).toBe(before.keys);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  return result;
}

describe("sandbox (QuickJS in WebAssembly)", () => {
  it("runs test code over the tables and returns rows in a fixed shape", async () => {
    const code = `// active schools, best reading score first
      const active = tables.schools.filter((s) => s.status === "Active");
      result = active.sort((a, b) => b.score - a.score).map((s) => ({ name: s.name, score: s.score }));`;
    const out = await runSandboxed(code, tables);
    expect(out).toMatchObject({ ok: true, columns: ["name", "score"], rows: [["Gamma", 580], ["Alpha", 500]] });
  });

  it("takes a table's name as a global, a scalar answer, and let/const result", async () => {
    expect(await runSandboxed("const result = schools.length;", tables)).toMatchObject({ ok: true, columns: ["result"], rows: [[3]] });
    expect(await runSandboxed("let result = [[1, 'a'], [2, null]];", tables)).toMatchObject({ ok: true, rows: [[1, "a"], [2, null]] });
  });

  it("refuses require and import", async () => {
    const r1 = await blocked("const fs = require('fs'); result = fs.readFileSync('/etc/passwd', 'utf8');");
    expect(r1).toMatchObject({ ok: false, kind: "error" });
    expect(r1.ok || r1.message).toMatch(/require/);
    const r2 = await blocked("import('fs').then((m) => { result = 1; }); result = 0;");
    // A dynamic import has no loader: the promise rejects, nothing is loaded.
    expect(r2).toMatchObject({ ok: true, rows: [[0]] });
    const r3 = await blocked("import fs from 'fs'; result = 1;");
    expect(r3).toMatchObject({ ok: false, kind: "error" });
  });

  it("file system and network calls fail with a clear error", async () => {
    for (const [code, name] of [
      ["result = fetch('http://127.0.0.1:1/');", "fetch"],
      ["result = new XMLHttpRequest();", "XMLHttpRequest"],
      ["result = std.loadFile('/etc/passwd');", "std"],
      ["result = os.open('/etc/passwd');", "os"],
      ["result = process.binding('fs');", "process"],
      ["setTimeout(() => {}, 0); result = 1;", "setTimeout"],
    ] as const) {
      const out = await blocked(code);
      expect(out).toMatchObject({ ok: false, kind: "error" });
      expect(out.ok || out.message).toBe(`ReferenceError: '${name}' is not defined`);
    }
  });

  it("stops catastrophic regular-expression backtracking at the time limit", async () => {
    const out = await blocked("result = /(a+)+b/.test('a'.repeat(40));", { timeoutMs: 200 });
    expect(out).toMatchObject({ ok: false, kind: "timeout" });
  });

  it("has no process, host globals, timers or network", async () => {
    for (const name of ["process", "require", "setTimeout", "setInterval", "fetch", "XMLHttpRequest", "WebSocket", "Buffer", "std", "os"]) {
      const out = await blocked(`result = typeof ${name};`);
      expect(out).toMatchObject({ ok: true, rows: [["undefined"]] });
    }
    const r = await blocked("result = process.env.HOME;");
    expect(r).toMatchObject({ ok: false, kind: "error" });
    expect(r.ok || r.message).toMatch(/process/);
  });

  it("globalThis and prototype tampering stays inside", async () => {
    const out = await blocked(`
      Object.prototype.polluted = "yes";
      Array.prototype.map = function () { return "hijacked"; };
      globalThis.tables = null;
      JSON.stringify = () => "{}";
      result = [{ n: 1 }];`);
    // The answer's serializer was fixed before the code ran; its tampering changes nothing on the host side.
    expect(out).toMatchObject({ ok: true, columns: ["n"], rows: [[1]] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect([1].map((x) => x + 1)).toEqual([2]);
    // The next run starts clean.
    expect(await runSandboxed("result = [{ p: ({}).polluted ?? null }];", tables)).toMatchObject({ ok: true, rows: [[null]] });
  });

  it("the Function constructor reaches only the sandbox's own global", async () => {
    const out = await blocked(`const g = Function("return this")(); result = [typeof g.process, typeof g.require, typeof g.tables];`);
    expect(out).toMatchObject({ ok: true, rows: [["undefined"], ["undefined"], ["object"]] });
    const viaConstructor = await blocked(`result = (() => {}).constructor("return typeof process")();`);
    expect(viaConstructor).toMatchObject({ ok: true, rows: [["undefined"]] });
  });

  it("test tables cannot be changed by the code", async () => {
    const out = await blocked(`"use strict"; tables.schools[0].name = "X"; result = 1;`);
    expect(out).toMatchObject({ ok: false, kind: "error" });
    expect(out.ok || out.message).toMatch(/read-only|read only|not writable/i);
    expect(tables.schools![0]!.name).toBe("Alpha");
  });

  it("stops an infinite loop at the time limit", async () => {
    const started = Date.now();
    const out = await blocked("while (true) {}", { timeoutMs: 200 });
    expect(out).toMatchObject({ ok: false, kind: "timeout" });
    expect(out.ok || out.message).toMatch(/200 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("stops a memory bomb at the memory limit", async () => {
    const out = await blocked("const a = []; for (;;) a.push({ k: a.length, s: 'row' + a.length });", { memoryBytes: 16 * 1024 * 1024, timeoutMs: 5000 });
    expect(out).toMatchObject({ ok: false, kind: "memory" });
    expect(out.ok || out.message).toMatch(/out of memory/);
    // The thread's WebAssembly memory has a hard cap of its own: a limit set far too high still stops the bomb.
    const capped = await blocked("let s = []; for (;;) s.push('x'.repeat(1024) + s.length);", { memoryBytes: 2 ** 30, timeoutMs: 10_000 });
    expect(capped).toMatchObject({ ok: false, kind: "memory" });
    expect(await runSandboxed("result = 1;", tables)).toMatchObject({ ok: true, rows: [[1]] });
  });

  it("stops a built-in that loops in C past the interrupt handler: the host ends the thread", async () => {
    // QuickJS's indexOf over an array-like never consults the interrupt handler; only the host's deadline stops it.
    const started = Date.now();
    const out = await blocked("result = Array.prototype.indexOf.call({ length: 2 ** 52 }, 1);", { timeoutMs: 100 });
    expect(out).toMatchObject({ ok: false, kind: "timeout" });
    expect(out.ok || out.message).toMatch(/100 ms/);
    expect(Date.now() - started).toBeLessThan(3000);
    // A fresh thread takes the next run.
    expect(await runSandboxed("result = tables.schools.length;", tables)).toMatchObject({ ok: true, rows: [[3]] });
  });

  it("getters, toJSON, Proxies and throwing tricks in the answer run under the same time limit", async () => {
    for (const code of [
      "result = [{ get a() { for (;;) {} } }];",
      "result = { toJSON() { for (;;) {} } };",
      "result = new Proxy([], { get() { for (;;) {} } });",
      "Object.defineProperty(globalThis, 'result', { get() { for (;;) {} } });",
      "throw { get message() { for (;;) {} } };",
      "throw new Proxy({}, { get() { for (;;) {} } });",
    ]) {
      const out = await blocked(code, { timeoutMs: 100 });
      expect(out).toMatchObject({ ok: false, kind: "timeout" });
    }
    // A Proxy that behaves is only data once serialized inside: three rows of {a: 1}.
    const proxy = await blocked("result = new Proxy([], { get(t, k) { return k === 'length' ? 3 : { a: 1 }; } });");
    expect(proxy).toMatchObject({ ok: true, columns: ["a"], rows: [[1], [1], [1]] });
    // A huge thrown text comes back as one short line.
    const huge = await blocked("throw new Error('x'.repeat(4e6));");
    expect(huge).toMatchObject({ ok: false, kind: "error" });
    expect(huge.ok || huge.message.length).toBeLessThanOrEqual(500);
  });

  it("leaves promise jobs pending and offers no Atomics or WebAssembly; symbol keys are dropped", async () => {
    const pending = await blocked("Promise.resolve().then(() => { for (;;) {} }); (async () => { await null; result = 2; })(); result = 1;", { timeoutMs: 100 });
    expect(pending).toMatchObject({ ok: true, rows: [[1]] });
    expect(await blocked("result = [typeof Atomics, typeof WebAssembly];")).toMatchObject({ ok: true, rows: [["undefined"], ["undefined"]] });
    expect(await blocked("result = [{ [Symbol('k')]: 1, b: 2 }];")).toMatchObject({ ok: true, columns: ["b"], rows: [[2]] });
    // The answer's serializer cannot be shadowed by the code.
    expect(await blocked("let __answer = () => '{\"value\": 7}'; result = 1;")).toMatchObject({ ok: false, kind: "error" });
  });

  it("the answer's envelope cannot be replaced through Object.defineProperty on a prototype", async () => {
    // A toJSON on Object.prototype used to replace the envelope itself: a forged value, or a forged "missing".
    const forged = await blocked(`Object.defineProperty(Object.prototype, "toJSON", { value() { return { value: 42 }; } }); result = 1;`);
    expect(forged).toMatchObject({ ok: true, columns: ["result"], rows: [[1]] });
    const missing = await blocked(`Object.defineProperty(Object.prototype, "toJSON", { value() { return { missing: true }; } }); result = 7;`);
    expect(missing).toMatchObject({ ok: true, rows: [[7]] });
    // Replacing the helpers an envelope could be built with changes nothing either.
    const helpers = await blocked(`Object.create = () => ({ value: 42 }); Object.freeze = (o) => o; result = 3;`);
    expect(helpers).toMatchObject({ ok: true, rows: [[3]] });
  });

  it("in a CLI process: loader flags are not passed to the thread, nothing is printed, the process exits when done", () => {
    const sandbox = fileURLToPath(new URL("../tools/sandbox/sandbox.ts", import.meta.url));
    const script =
      `import { runSandboxed } from ${JSON.stringify(sandbox)};\n` +
      `const a = await runSandboxed("result = 1 + 1;", {});\n` +
      // Deep nesting aborts QuickJS's WebAssembly instance, which prints an abort text where it can.
      `const b = await runSandboxed("let o = []; for (let i = 0; i < 1e5; i++) o = [o]; result = o;", {}, { timeoutMs: 200 });\n` +
      `process.stdout.write(JSON.stringify([a.ok && a.rows, b.ok]));`;
    const child = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { encoding: "utf8", timeout: 20_000 });
    expect(child.error).toBeUndefined(); // not killed at the timeout: an idle sandbox thread does not keep it alive
    expect(child.stdout).toBe(JSON.stringify([[[2]], false]));
    expect(child.stderr.replace(/npm warn.*\n?/g, "")).toBe("");
    expect(child.status).toBe(0);
  });

  it("refuses a huge result without copying it out, also on a busy CPU", async () => {
    // The result limit is what this checks, never the time limit: a generous deadline and a result (about 350,000
    // characters against a limit of 100,000) that takes a few milliseconds to build, while other threads keep every
    // core busy, as a loaded machine does.
    const stop = new Int32Array(new SharedArrayBuffer(4));
    const spinners = Array.from({ length: 3 }, () => new Worker("const { workerData } = require('node:worker_threads'); while (!Atomics.load(workerData, 0)) {}", { eval: true, workerData: stop }));
    try {
      const out = await blocked("result = Array.from({ length: 10000 }, (_, i) => ({ i, s: 'x'.repeat(20) }));", { maxResultChars: 100_000, timeoutMs: 60_000 });
      expect(out).toMatchObject({ ok: false, kind: "shape" });
      expect(out.ok || out.message).toMatch(/too large/);
    } finally {
      Atomics.store(stop, 0, 1);
      await Promise.all(spinners.map((w) => w.terminate()));
    }
  });

  it("says what is wrong with a missing or malformed result", async () => {
    expect(await runSandboxed("const x = 1;", tables)).toMatchObject({ ok: false, kind: "shape", message: "the code did not assign `result`" });
    expect(await runSandboxed("result = [{ a: { nested: 1 } }];", tables)).toMatchObject({ ok: false, kind: "shape" });
    expect(await runSandboxed("result = [[1, 2], [3]];", tables)).toMatchObject({ ok: false, kind: "shape" });
    expect(await runSandboxed("result = ;", tables)).toMatchObject({ ok: false, kind: "error" });
    expect(await runSandboxed("throw new Error('boom');", tables)).toMatchObject({ ok: false, kind: "error", message: "Error: boom" });
  });

  it("a deep recursion is an error, not a crash", async () => {
    const out = await blocked("function f(n) { return f(n + 1) + 1; } result = f(0);");
    expect(out).toMatchObject({ ok: false, kind: "error" });
    expect(out.ok || out.message).toMatch(/stack/);
    expect(await runSandboxed("result = 2;", tables)).toMatchObject({ ok: true, rows: [[2]] });
  });
});
