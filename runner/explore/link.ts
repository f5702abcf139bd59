import { dataDir } from "../../tools/paths.ts";
import fs from "node:fs";
import path from "node:path";
import { type ConfigInput, type ConfigOf, checkConfig, defineConfig, inApiWords, opt, optionUsageError } from "../../core/config.ts";
import { UserError } from "../../core/errors.ts";
import { type CliIO, defaultIO } from "../../core/io.ts";
import type { Linking } from "../../state/linking.ts";
import type { Usage } from "../../state/usage.ts";
import type { LinkResult } from "../../tools/linking/link.ts";
import { MODEL_CONFIG, QUESTION_CONFIG } from "../run/run-config.ts";
import { modelFlagsFrom } from "../run/model-options.ts";

// `sqlmend link` as a function: what schema and value linking finds for one question. The model client, the linker
// and the value index load on use, so the command's flag checks and --help load none of them.

/** The model options linking uses: every model option but the response cache (linking asks without one). */
const { cache: _cache, ...LINK_MODEL_CONFIG } = MODEL_CONFIG;

/** `link`'s options: the question and its database (required), what linking reads, and the linker's model. */
export const LINK_CONFIG = defineConfig({
  ...QUESTION_CONFIG,
  keywords: { type: "list", metavar: "A,B,...", help: "use these keywords; no model call" },
  ...LINK_MODEL_CONFIG,
});

export type LinkConfig = ConfigOf<typeof LINK_CONFIG>;
export type LinkOptions = ConfigInput<typeof LINK_CONFIG> & { question: string; db: string };

/** What linking found: the keywords, columns and stored values (`Linking`), where the keywords came from, what it cost. */
export type LinkFound = Linking & {
  /** `keywords`: given; `linker`: the linker role's model; `question`: the question's own words (no model configured). */
  keywordSource: "keywords" | "linker" | "question";
  /** The linker's and the embedder's calls and tokens. */
  usage: Usage;
  /** The value index used: its file, reused or built now, its size (absent when no value was looked up). */
  index?: NonNullable<LinkResult["index"]>;
};

/** Links one question to its database's columns and stored values (paths from `io.cwd`; warnings on `io.stderr`). */
export async function link(options: LinkOptions, io: Pick<CliIO, "env" | "cwd" | "stderr"> = defaultIO()): Promise<LinkFound> {
  return inApiWords("link", () => linkOne(checkConfig("link", LINK_CONFIG, options), io));
}

/** The body `link` and the launcher share, on a checked config. */
export async function linkOne(config: LinkConfig, io: Pick<CliIO, "env" | "cwd" | "stderr">): Promise<LinkFound> {
  if (config.db === undefined) throw optionUsageError`${opt("db")} FILE is required`;
  const question = config.question?.trim();
  if (!question) throw optionUsageError`the question is missing (${opt("question")})`;
  const dbPath = path.resolve(io.cwd, config.db);
  if (!fs.existsSync(dbPath)) throw new UserError(`database not found: ${config.db}`);
  const keywords = config.keywords?.filter(Boolean);

  const [{ linkQuestion }, { resolveModelConfig, resolveRoleSettings }, { createEmbedder, createModelProvider }, { lexicalKeywords }, { usageOfCalls }, { createExecutor }] = await Promise.all([
    import("../../nodes/link.ts"),
    import("../../tools/models/models.ts"),
    import("../../tools/models/provider.ts"),
    import("../../tools/linking/link.ts"),
    import("../../state/usage.ts"),
    import("../../tools/sqlite/executor.ts"),
  ]);
  const models = resolveModelConfig(modelFlagsFrom(config), io.env, io.cwd);
  // Without a model for the linker, the question's own words stand in for its keywords.
  const hasModel = resolveRoleSettings(models, "linker") !== undefined;
  const evidence = config.evidence ?? "";
  const executor = createExecutor({ size: 1 });
  try {
    const embeddings = createEmbedder(models, io.env, io.cwd, (line) => io.stderr(`warning: ${line}\n`));
    const deps = { models: createModelProvider(models, io.env), executor, ...(embeddings ? { embeddings } : {}) };
    const { linking, records, index } = await linkQuestion(deps, {
      question,
      evidence,
      dbPath,
      descriptionDir: config.descriptionDir ? path.resolve(io.cwd, config.descriptionDir) : undefined,
      keywords: keywords ?? (hasModel ? undefined : lexicalKeywords(question, evidence)),
      // The value index lives in the caller's data directory (its SQLMEND_HOME), not the process's.
      dataDir: dataDir(io.env, io.cwd),
    });
    return { ...linking, keywordSource: keywords ? "keywords" : hasModel ? "linker" : "question", usage: usageOfCalls(records), ...(index ? { index } : {}) };
  } finally {
    await executor.close();
  }
}
