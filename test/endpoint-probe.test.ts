/** A down model endpoint is known before any question runs: one line naming the URL and what to check. */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { minibenchFixture, runCli } from "./support/cli.ts";
import { makeTempDir, removeTempDir } from "./support/fixtures.ts";
import { probeEndpoint } from "../tools/models/probe.ts";

let dir: string;
let benchDir: string;
beforeAll(async () => {
  dir = makeTempDir("sqlmend-probe-");
  ({ benchDir } = await minibenchFixture(dir));
}, 120_000);
afterAll(() => removeTempDir(dir));

/** A 127.0.0.1 port nothing listens on: one the system gave us, closed again. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("the endpoint probe", () => {
  it("eval and memo build against a closed port stop at once with one line, nothing run", async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`;
    const run = await runCli(["eval", "baseline", "--bench", benchDir, "--model", "m", "--base-url", url, "--out", "runs/down"], dir, { OPENAI_API_KEY: "k" });
    expect(run.code).toBe(1);
    const lines = run.err.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`the model endpoint ${url} does not answer (ECONNREFUSED)`);
    expect(lines[0]).toContain("check that the server is running and that OPENAI_BASE_URL / --base-url names it");
    expect(fs.existsSync(path.join(dir, "runs/down/results.jsonl"))).toBe(false);
    const memo = await runCli(["memo", "build", "--bench", benchDir, "--model", "m", "--base-url", url, "--out", "runs/memo.sqlite"], dir, { OPENAI_API_KEY: "k" });
    expect(memo.code).toBe(1);
    expect(memo.err).toContain(`the model endpoint ${url} does not answer`);
  }, 60_000);

  it("a server that accepts and never answers fails at the probe's timeout; any HTTP reply counts as up", async () => {
    const sockets: net.Socket[] = [];
    const silent = net.createServer((s) => void sockets.push(s));
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const http = await import("node:http");
    const notFound = http.createServer((_req, res) => res.writeHead(404).end());
    await new Promise<void>((resolve) => notFound.listen(0, "127.0.0.1", resolve));
    try {
      expect(await probeEndpoint(`http://127.0.0.1:${(silent.address() as net.AddressInfo).port}/v1`, 300)).toBe("no reply within 0.3 s");
      expect(await probeEndpoint(`http://127.0.0.1:${(notFound.address() as net.AddressInfo).port}/v1`, 5_000)).toBeUndefined();
    } finally {
      for (const s of sockets) s.destroy();
      silent.close();
      notFound.close();
    }
  });
});
