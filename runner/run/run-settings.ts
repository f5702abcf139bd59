import { sha256OfFile } from "../../tools/hash.ts";
import path from "node:path";
import { findManifest } from "../../graphs/registry.ts";
import type { GraphInfo } from "../../graphs/spec.ts";
import { optionDefsOf } from "../../graphs/manifests/manifest.ts";
import { firstLineOf, UserError } from "../../core/errors.ts";
import { runPath, runPlace } from "./run-json.ts";
import { flagOf } from "../../core/options.ts";
import { type RunConfig } from "./run-config.ts";
import { OBJECT_ID, userModuleIdentity } from "./user-modules.ts";
import { optionsOfGraph } from "./run-options.ts";

// What run.json records of a run's settings: the answer-shaping options, each node module's identity, the graphs'
// own options (a file option with its sha256).

/** The shared options that change answers or verdicts (not speed): run.json records them (by flag name) and `--resume` keeps them. */
const ANSWER_KEYS = ["maxFixRounds", "fewShot", "schemaMaxChars", "queryTimeoutMs", "node", "graph", "initial", "correct", "keepDistinct", "embeddingFallback"] as const;

/** The answer-changing options of a run's typed config. */
export type AnswerConfig = Pick<RunConfig, Exclude<(typeof ANSWER_KEYS)[number], "keepDistinct">> & { keepDistinct?: boolean | undefined };

/**
 * The answer-changing shared options a run was given, under their flag names (`except`: flag names its command
 * records elsewhere in run.json). With `where` (a run folder), files are recorded as `--resume` compares them: each
 * node swap as `{ SLOT: { path, sha256 } }` (`moduleIdentity`: the module's content, wherever it is), and an initial
 * predictions file by its place from the run folder or its absolute path (`runPlace`), so a moved run still resumes.
 */
export function answerSettings(config: AnswerConfig, except: readonly string[] = [], where?: { cwd: string; runDir: string }): Record<string, unknown> {
  const out: Record<string, unknown> = Object.fromEntries(ANSWER_KEYS.filter((k) => config[k] !== undefined && !except.includes(flagOf(k))).map((k) => [flagOf(k), config[k]]));
  if (!where) return out;
  if (out.node !== undefined) out.node = nodeIdentities(out.node as Record<string, string>, where);
  // A graph of the user's own, like a --node module: by its content, so an edited graph never joins the run.
  if (typeof out.graph === "string") {
    const identity = userModuleIdentity(OBJECT_ID.test(out.graph) ? out.graph : path.resolve(where.cwd, out.graph));
    out.graph = { ...identity, path: OBJECT_ID.test(out.graph) ? identity.path : runPath(identity.path, where.runDir) };
  }
  if (typeof out.initial === "string" && !findManifest(out.initial)) out.initial = runPlace(path.resolve(where.cwd, out.initial), where.runDir);
  return out;
}

/** Every node swap as run.json records it: by slot, the module's path (from the run when inside it) and sha256. */
export function nodeIdentities(nodes: Readonly<Record<string, string>>, where: { cwd: string; runDir: string }): Record<string, { path: string; sha256: string }> {
  return Object.fromEntries(
    Object.entries(nodes).map(([slot, modulePath]) => {
      const file = OBJECT_ID.test(modulePath) ? modulePath : path.resolve(where.cwd, modulePath);
      try {
        const identity = userModuleIdentity(file);
        return [slot, { ...identity, path: OBJECT_ID.test(modulePath) ? identity.path : runPath(identity.path, where.runDir) }];
      } catch (error) {
        throw new UserError(`cannot read node module ${modulePath}: ${firstLineOf(error)}`);
      }
    }),
  );
}

/** A file option as the report and `--resume` record it: its path (from the run folder when inside it) and the sha256 of its bytes. */
function fileSetting(value: string, cwd: string, runDir: string | undefined): { path: string; sha256?: string } {
  const file = path.resolve(cwd, value);
  const recorded = runDir ? runPath(file, runDir) : file;
  try {
    return { path: recorded, sha256: sha256OfFile(file) };
  } catch {
    return { path: recorded };
  }
}

/**
 * A graph's options as the report and `--resume` record them: every declared option that changes answers, with its
 * default filled in, under its flag name.
 */
export function graphSettings(specs: GraphInfo[], graphOptions: Record<string, unknown>, cwd = process.cwd(), runDir?: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const spec of specs) {
    const given = optionsOfGraph(spec, graphOptions);
    for (const [key, def] of Object.entries(optionDefsOf(spec))) {
      if (def.affectsAnswers === false) continue;
      const value = given[key] ?? def.default;
      if (value !== undefined) out[flagOf(key)] = def.type === "string" && def.file ? fileSetting(String(value), cwd, runDir) : value;
    }
  }
  return out;
}
