import { opt, optionUsageError } from "../../core/config.ts";
import { sqlmendPackage } from "../../tools/version.ts";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { UsageError, UserError } from "../../core/errors.ts";
import { findManifest } from "../../graphs/registry.ts";

/**
 * `sqlmend new node|graph` and `sqlmend check`: a typed start for a node or a method of one's own, and a type check of
 * it against its slot (or as a graph) with the TypeScript compiler, resolving `sqlmend` and LangGraph as the launcher
 * does (tools/user-module-hooks.mjs), so a module needs no `npm install` of its own.
 */

/** The marker a node stub carries, so `check FILE` knows its slot without flags. */
const NODE_MARKER = /^\/\/ sqlmend: node (\S+) (\S+)$/m;
const GRAPH_MARKER = /^\/\/ sqlmend: graph$/m;


/**
 * What `sqlmend` is typed by: the build's declarations when there are (a check reads them, not ~200 source files),
 * else the sources.
 */
function typesEntry(root: string, sources: boolean): string {
  const declarations = path.join(root, "dist", "index.d.ts");
  return !sources || fs.existsSync(declarations) ? declarations : path.join(root, "index.ts");
}

/** A built-in graph's spec export (`ts-sql-refine` → `tsSqlRefineSpec`), as index.ts names them. */
const specExport = (graph: string) => `${graph.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase())}Spec`;

const comment = (text: string) => text.replace(/^/gm, "// ");

export interface NewFileResult {
  /** The files written (the module, and package.json / tsconfig.json when the folder had none). */
  written: string[];
}

/** Writes package.json (ESM) and tsconfig.json beside a new module when its folder has none: editors then type-check it. */
function projectFiles(folder: string): string[] {
  const written: string[] = [];
  const { root, sources } = sqlmendPackage();
  const pkg = path.join(folder, "package.json");
  if (!fs.existsSync(pkg)) {
    fs.writeFileSync(pkg, `${JSON.stringify({ private: true, type: "module" }, null, 2)}\n`);
    written.push(pkg);
  }
  const tsconfig = path.join(folder, "tsconfig.json");
  if (!fs.existsSync(tsconfig)) {
    // `sqlmend` and its dependencies as the launcher resolves them for this folder (no npm install needed): the entry
    // that runs (tsx reads these paths too), typed by the declarations beside it when compiled.
    const entry = sources ? path.join(root, "index.ts") : path.join(root, "dist", "index.js");
    const config = {
      compilerOptions: {
        target: "ES2022",
        lib: ["ES2023"],
        module: "ESNext",
        moduleResolution: "Bundler",
        strict: true,
        noEmit: true,
        skipLibCheck: true,
        allowImportingTsExtensions: true,
        types: [],
        allowJs: true,
        paths: { sqlmend: [entry], "*": [path.join(root, "node_modules", "@types", "*"), path.join(root, "node_modules", "*")] },
      },
      include: ["*.ts", "*.mts"],
    };
    fs.writeFileSync(tsconfig, `${JSON.stringify(config, null, 2)}\n`);
    written.push(tsconfig);
  }
  return written;
}

function refuseExisting(file: string): void {
  if (fs.existsSync(file)) throw new UserError(`${file} exists: choose another file name (sqlmend new never overwrites)`);
}

/**
 * A replacement for one slot of a built-in graph: its contract as a comment and as the factory type, and a body that
 * runs the slot's default node (a working start to change).
 */
export function newNode(args: { graph: string; slot: string; file: string; cwd?: string }): NewFileResult {
  const manifest = findManifest(args.graph);
  if (!manifest) throw new UsageError(`no graph '${args.graph}' (sqlmend graphs lists them)`);
  const info = manifest.slots[args.slot];
  if (!info) throw new UsageError(`graph '${args.graph}' has no slot '${args.slot}' (slots: ${Object.keys(manifest.slots).join(", ")})`);
  const file = path.resolve(args.cwd ?? process.cwd(), args.file);
  refuseExisting(file);
  const spec = specExport(args.graph);
  const contract = [
    `Slot '${args.slot}' of graph '${args.graph}': ${info.summary}.`,
    info.payload ? `Run by a Send fan-out: it is given a ${info.payload} (${(info.reads ?? []).join(", ")}), not the graph's state.` : `Reads: ${(info.reads ?? []).join(", ") || "(nothing declared)"}.`,
    `Writes: ${(info.writes ?? []).join(", ") || "(nothing declared)"}${info.requires?.length ? `; every update must hold ${info.requires.join(", ")}` : ""}.`,
    info.returns === "Command" ? `Returns a Command routing to ${(info.routesTo ?? []).join(" or ")}.` : "Returns an update (state fields), or a Command.",
    info.role ? `Its model calls name the role '${info.role}' (--role-model ${info.role}=MODEL).` : "",
    ...(info.rules ?? []).map((rule) => `Must ${rule.must}.`),
  ].filter(Boolean);
  const text = `// sqlmend: node ${args.graph} ${args.slot}
${comment(contract.join("\n"))}
//
// Run it:   sqlmend eval ${args.graph} --node ${args.slot}=./${path.basename(file)} --bench minibench --out runs/mine
// Check it: sqlmend check ./${path.basename(file)}
import { ${spec}, type SlotFactory } from "sqlmend";

// The slot's default node: this start runs it unchanged. Replace the body with your strategy (docs/guides/new-node.md
// names the helpers a node uses: writeSqlStep, executeSql, withCalls, candidates, reviews, Send payloads).
const defaultNode = ${spec}.slots.${/^[A-Za-z_$][\w$]*$/.test(args.slot) ? args.slot : `[${JSON.stringify(args.slot)}]`}.factory;

const node: SlotFactory<typeof ${spec}, ${JSON.stringify(args.slot)}> = (deps, options) => {
  const original = defaultNode(deps, options);
  return async (input) => {
    // Your strategy here: look at \`input\`, call a model through \`deps.models\`, return what the slot returns.
    return original(input);
  };
};

export default node;
`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return { written: [file, ...projectFiles(path.dirname(file))] };
}

/** A method of one's own in one file: baseline's shared slots plus a slot of its own, runnable with `eval --graph`. */
export function newGraph(args: { file: string; name?: string; cwd?: string }): NewFileResult {
  const file = path.resolve(args.cwd ?? process.cwd(), args.file);
  refuseExisting(file);
  const name = args.name ?? path.basename(file).replace(/\.[cm]?[tj]s$/, "").replace(/[^a-z0-9-]+/gi, "-").toLowerCase();
  if (findManifest(name)) throw optionUsageError`'${name}' is a built-in graph's name: name yours otherwise (${opt("name")})`;
  const text = `// sqlmend: graph
// A method in one file: schema → generate → check → execute → (fix → execute)*. Each agent is a slot (a node others
// can swap with --node), each loop an edge with a bound, and steps() counts the supersteps with every loop at it.
//
// Run it:   sqlmend eval --graph ./${path.basename(file)} --bench minibench --out runs/${name}
// Check it: sqlmend check ./${path.basename(file)}
import { END, START, StateGraph, StateSchema } from "@langchain/langgraph";
import { z } from "zod";
import { defineGraph, defineOptions, readOptions, routeAfterExecute, SHARED_SLOTS, SqlInputState, sqlStateFields, type NodeFactory } from "sqlmend";

// The graph's state: the shared fields (question, sql, execution, calls, usage, ...) and its own.
const State = new StateSchema({ ...sqlStateFields, checked: z.boolean().default(false) });

// Options become flags of ask and eval (--strip-semicolons), are checked, shown by --help and recorded in run.json.
const options = defineOptions({ stripSemicolons: { type: "boolean", default: true, help: "drop trailing semicolons before execution" } });

// A slot of its own: reads the SQL, writes it back tidied.
const check: NodeFactory = (_deps, runOptions) => async (state) => {
  const { stripSemicolons } = readOptions(options, runOptions);
  return { sql: stripSemicolons ? state.sql.trim().replace(/;+$/, "") : state.sql, checked: true };
};

export default defineGraph({
  name: ${JSON.stringify(name)},
  summary: "baseline with a check of the SQL before it runs",
  kind: "generator",
  state: State,
  options,
  slots: {
    schema: SHARED_SLOTS.schema,
    generate: SHARED_SLOTS.generate,
    check: { summary: "tidy the SQL before it runs", reads: ["sql"], writes: ["sql", "checked"], factory: check },
    execute: SHARED_SLOTS.execute,
    fix: SHARED_SLOTS.fix,
  },
  // schema, generate, check, execute, then (fix, execute) per fix round.
  steps: (o) => 4 + 2 * (o.maxFixRounds ?? 3),
  // One generation, then at most one fix call per round.
  calls: (o) => ({ min: 1, max: 1 + Number(o.maxFixRounds ?? 3) }),
  // What each question went through: results.jsonl's outcome, summed in report.md.
  outcome: { of: (state) => ({ checked: state.checked === true }) },
  wire: ({ node, options: o }) =>
    new StateGraph(State, { input: SqlInputState })
      .addNode("schema", node("schema"))
      .addNode("generate", node("generate"))
      .addNode("check", node("check"))
      .addNode("execute", node("execute"))
      .addNode("fix", node("fix"))
      .addEdge(START, "schema")
      .addEdge("schema", "generate")
      .addEdge("generate", "check")
      .addEdge("check", "execute")
      .addConditionalEdges("execute", routeAfterExecute(o.maxFixRounds), ["fix", END])
      .addEdge("fix", "execute"),
});
`;
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
  return { written: [file, ...projectFiles(path.dirname(file))] };
}

export interface CheckResult {
  ok: boolean;
  /** What it was checked as: "node r3 review", or "graph". */
  as: string;
  /** TypeScript's diagnostics, a line each (file(line,col): error TSnnnn: message). */
  errors: string[];
}

/**
 * Type-checks a module as `tsc --strict` would, against its slot's factory type (`SlotFactory<typeof spec, slot>`)
 * or as a graph (`GraphSpec`): a stub's marker names its slot, or `graph`/`slot` do. Needs the `typescript` package
 * (sqlmend's, or the module folder's).
 */
export async function checkModule(args: { file: string; graph?: string; slot?: string; cwd?: string }): Promise<CheckResult> {
  const file = path.resolve(args.cwd ?? process.cwd(), args.file);
  if (!fs.existsSync(file)) throw new UserError(`${args.file}: no such file`);
  const text = fs.readFileSync(file, "utf8");
  const marked = NODE_MARKER.exec(text);
  const graph = args.graph ?? marked?.[1];
  const slot = args.slot ?? marked?.[2];
  const asGraph = !graph && (GRAPH_MARKER.test(text) || /\bdefineGraph\s*\(/.test(text));
  if (!asGraph && !(graph && slot)) throw new UsageError("name the slot the module replaces: --graph GRAPH --slot SLOT (or check a graph module made with defineGraph)");
  if (graph && !findManifest(graph)) throw new UsageError(`no graph '${graph}' (sqlmend graphs lists them)`);
  if (graph && slot && !findManifest(graph)!.slots[slot]) throw new UsageError(`graph '${graph}' has no slot '${slot}'`);

  const { root, sources } = sqlmendPackage();
  let ts: typeof import("typescript");
  try {
    const require = createRequire(pathToFileURL(file).href);
    ts = (() => {
      try {
        return require("typescript") as typeof import("typescript");
      } catch {
        return createRequire(path.join(root, "package.json"))("typescript") as typeof import("typescript");
      }
    })();
  } catch {
    throw new UserError("sqlmend check needs the typescript package: npm install --save-dev typescript (in the module's folder or beside sqlmend)");
  }
  // A probe beside nothing of the user's: it imports the module and assigns its default export to the slot's type.
  const probe = path.join(path.dirname(file), `.sqlmend-check-${process.pid}.ts`);
  const moduleImport = JSON.stringify(`./${path.basename(file)}`);
  const probeText = asGraph
    ? `import type { GraphSpec } from "sqlmend";\nimport graph from ${moduleImport};\nexport const checked: GraphSpec = graph;\n`
    : `import type { SlotFactory, ${specExport(graph!)} } from "sqlmend";\nimport node from ${moduleImport};\nexport const checked: SlotFactory<typeof ${specExport(graph!)}, ${JSON.stringify(slot)}> = node;\n`;
  const entry = typesEntry(root, sources);
  const options: import("typescript").CompilerOptions = {
    target: ts.ScriptTarget.ES2022,
    lib: ["lib.es2023.d.ts"],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    allowJs: true,
    types: [],
    paths: { sqlmend: [entry], "*": [path.join(root, "node_modules", "@types", "*"), path.join(root, "node_modules", "*")] },
  };
  fs.writeFileSync(probe, probeText);
  try {
    const program = ts.createProgram([file, probe], options);
    // Only what concerns the module and the probe: sqlmend's own sources are checked by its own build.
    const diagnostics = ts.getPreEmitDiagnostics(program).filter((d) => !d.file || d.file.fileName === file || d.file.fileName === probe || !d.file.fileName.startsWith(root));
    const errors = diagnostics
      .filter((d) => d.category === ts.DiagnosticCategory.Error)
      .map((d) => {
        const message = ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0];
        if (!d.file || d.start === undefined) return `error TS${d.code}: ${message}`;
        const { line, character } = d.file.getLineAndCharacterOfPosition(d.start);
        const where = d.file.fileName === probe ? `${args.file} (its default export as ${asGraph ? "a graph" : `slot '${slot}' of '${graph}'`})` : `${path.relative(args.cwd ?? process.cwd(), d.file.fileName)}(${line + 1},${character + 1})`;
        return `${where}: error TS${d.code}: ${message}`;
      });
    return { ok: errors.length === 0, as: asGraph ? "graph" : `node ${graph} ${slot}`, errors };
  } finally {
    fs.rmSync(probe, { force: true });
  }
}
