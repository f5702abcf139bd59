/**
 * A real PostgreSQL server for tests: Debian's binaries, a fresh data directory under the temp folder, a free port on
 * 127.0.0.1, trust authentication, stopped (and its files removed) by `stop()`. As root, the server runs as the
 * `postgres` user (initdb refuses root). `startPostgres` gives `{ skip }` with the reason when no server binary exists.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export interface PostgresServer {
  url: string;
  port: number;
  stop(): void;
}

function findBin(name: string): string | undefined {
  const onPath = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" }).stdout.trim();
  if (onPath) return onPath;
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return undefined;
  const versions = fs.readdirSync(root).sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = path.join(root, v, "bin", name);
    if (fs.existsSync(bin)) return bin;
  }
  return undefined;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<PostgresServer | { skip: string }> {
  const initdb = findBin("initdb");
  const pgCtl = findBin("pg_ctl");
  if (!initdb || !pgCtl) return { skip: "no PostgreSQL server binaries (initdb, pg_ctl): apt-get install postgresql (.ci/run does)" };
  const asRoot = process.getuid?.() === 0;
  const run = (bin: string, args: string[]) =>
    asRoot ? execFileSync("runuser", ["-u", "postgres", "--", bin, ...args], { stdio: "pipe" }) : execFileSync(bin, args, { stdio: "pipe" });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sqlmend-pg-"));
  if (asRoot) execFileSync("chown", ["-R", "postgres", dir]);
  const data = path.join(dir, "data");
  run(initdb, ["-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  run(pgCtl, ["-D", data, "-l", path.join(dir, "log"), "-w", "-t", "30", "-o", `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`, "start"]);
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    stop() {
      try {
        run(pgCtl, ["-D", data, "-m", "immediate", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
