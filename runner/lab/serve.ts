import { opt, optionUserError } from "../../core/config.ts";
import { sqlmendPackage } from "../../tools/version.ts";
import fs from "node:fs";
import path from "node:path";
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { firstLineOf, UserError } from "../../core/errors.ts";
import { graphManifests } from "../../graphs/registry.ts";
import { lazyCrypto } from "../../tools/hash.ts";
import { dataDir } from "../../tools/paths.ts";
import { loadRunModules } from "../run/user-modules.ts";

/**
 * `sqlmend serve`: a LangGraph server (the LangGraph CLI's dev server, `@langchain/langgraph-cli dev`) serving the
 * built-in graphs and the user's graph modules, on 127.0.0.1 by default. Its langgraph.json is written in the data
 * directory: built-ins through `graphs/served.ts`, each module through `servedModule(FILE)` (graphs/serve.ts), so
 * nothing of sqlmend's tree is edited. `eval --server URL [--graph FILE]` then runs on it, scoring here.
 */

export interface ServeOptions {
  /** Graph modules of the user's (made with defineGraph), served beside the built-ins under their own names. */
  graphs?: string[];
  host?: string;
  port?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Where the server's output goes (default: dropped). */
  log?: (text: string) => void;
  /** How long to wait for the server to answer (default 120 s). */
  readyTimeoutMs?: number;
}

export interface ServeHandle {
  url: string;
  /** The graphs it serves, by the name `eval GRAPH --server URL` (or `--graph FILE`) runs them by. */
  graphs: string[];
  /** The langgraph.json it was started with (a start for a hand-written one). */
  config: string;
  /** Stops the server. */
  close(): Promise<void>;
  /** Resolves when the server exits by itself, with its status. */
  exited: Promise<number | null>;
}


/** The LangGraph CLI's entry: sqlmend's copy (a clone has it), else one installed beside the user's project. */
function langgraphCli(root: string, cwd: string): string {
  for (const from of [path.join(root, "package.json"), path.join(cwd, "package.json")]) {
    try {
      return createRequire(from).resolve("@langchain/langgraph-cli/package.json").replace(/package\.json$/, path.join("dist", "cli", "cli.mjs"));
    } catch {
      // not there
    }
  }
  throw new UserError("sqlmend serve needs the LangGraph CLI: npm install --save-dev @langchain/langgraph-cli");
}

/** Writes the server's langgraph.json and the module exporting the user's graphs; returns the config's path. */
export async function writeServeConfig(args: { graphs?: string[]; cwd: string; env: NodeJS.ProcessEnv }): Promise<{ config: string; graphs: string[] }> {
  const { root, sources } = sqlmendPackage();
  const served = path.join(root, ...(sources ? ["graphs", "served.ts"] : ["dist", "graphs", "served.js"]));
  const serveModule = path.join(root, ...(sources ? ["graphs", "serve.ts"] : ["dist", "graphs", "serve.js"]));
  const entries: Record<string, string> = {};
  const exportName = (name: string) => name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase()).replace(/[^A-Za-z0-9_$]/g, "_");
  // The server takes each graph's path from the config's folder (an absolute one too), so paths are written relative.
  const folderOf = (text: string) => path.join(dataDir(args.env, args.cwd), "serve", lazyCrypto().createHash("sha256").update(text).digest("hex").slice(0, 12));
  const folder = folderOf(JSON.stringify([root, args.graphs ?? [], args.cwd]));
  const relative = (file: string) => { const rel = path.relative(folder, file).split(path.sep).join("/"); return rel.startsWith(".") ? rel : `./${rel}`; };
  for (const manifest of graphManifests) entries[manifest.name] = `${relative(served)}:${exportName(manifest.name)}`;
  const lines = [`import { servedModule } from ${JSON.stringify(pathToFileURL(serveModule).href)};`];
  const names: string[] = [];
  for (const file of args.graphs ?? []) {
    // Loaded here first: a module that does not load, or a name a built-in has, is one line before any server starts.
    const modules = await loadRunModules({ graph: file }, args.cwd);
    const spec = modules.graph!.spec;
    if (entries[spec.name]) throw optionUserError`${opt("graph")} ${file}: graph '${spec.name}' is served already`;
    const exported = `user_${exportName(spec.name)}`;
    lines.push(`export const ${exported} = servedModule(${JSON.stringify(modules.graph!.file)});`);
    names.push(spec.name);
    entries[spec.name] = `./user-graphs.mjs:${exported}`;
  }
  const config = { node_version: "20", dependencies: [relative(root)], graphs: entries };
  const text = JSON.stringify(config, null, 2);
  fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(folder, "user-graphs.mjs"), `// Written by sqlmend serve: the user's graph modules, each loaded on first use.\n${lines.join("\n")}\n`);
  fs.writeFileSync(path.join(folder, "langgraph.json"), `${text}\n`);
  return { config: path.join(folder, "langgraph.json"), graphs: [...graphManifests.map((m) => m.name), ...names] };
}

/** Starts the server and waits until it answers (`/ok`); one line when it cannot start. */
export async function startServe(options: ServeOptions = {}): Promise<ServeHandle> {
  const cwd = options.cwd ?? process.cwd();
  const env = options.env ?? process.env;
  const host = options.host ?? "127.0.0.1";
  const port = options.port ?? 2024;
  const { root } = sqlmendPackage();
  const cli = langgraphCli(root, cwd);
  const { config, graphs } = await writeServeConfig({ ...(options.graphs ? { graphs: options.graphs } : {}), cwd, env });
  const child: ChildProcess = spawn(process.execPath, [cli, "dev", "--port", String(port), "--host", host, "--no-browser", "--no-reload", "--config", config], {
    cwd: path.dirname(config),
    env: { ...env, SQLMEND_HOME: dataDir(env, cwd) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let log = "";
  const hear = (d: Buffer) => {
    log = (log + d).slice(-4000);
    options.log?.(String(d));
  };
  child.stdout!.on("data", hear);
  child.stderr!.on("data", hear);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const url = `http://${host.includes(":") ? `[${host}]` : host}:${port}`;
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  for (;;) {
    const ok = await fetch(`${url}/ok`).then((r) => r.ok).catch(() => false);
    if (ok) break;
    if (child.exitCode !== null || Date.now() > deadline) {
      child.kill("SIGTERM");
      const last = log.trim().split("\n").filter(Boolean).at(-1) ?? "no output";
      throw new UserError(`the LangGraph server did not start on ${url} (${child.exitCode !== null ? `it exited with ${child.exitCode}` : "no answer in time"}): ${firstLineOf(last)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    graphs,
    config,
    exited,
    async close() {
      if (child.exitCode === null) {
        child.kill("SIGTERM");
        await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
        if (child.exitCode === null) child.kill("SIGKILL");
      }
    },
  };
}
