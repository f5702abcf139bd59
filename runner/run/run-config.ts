import { type ConfigOf, defineConfig } from "../../core/config.ts";
import { SPLITS } from "../../state/splits.ts";
import { STRUCTURED_METHODS } from "../../tools/models/structured-methods.ts";

/**
 * The options every run command shares, declared once (core/config.ts): the models, the graph's shared knobs and node
 * swaps, correction, and (for a run into an output folder) the questions selected and the folder. A run function takes
 * their typed config (`RunConfig`, `RunDirConfig`); the launcher's flags, usage sections (cli/usage/run-usage.ts) and a
 * script's checks come from these tables. Loads nothing heavy: flag checks and `--help` read it.
 */

/** The models: which, where, how they are called, the response cache. */
export const MODEL_CONFIG = defineConfig({
  model: { type: "string", metavar: "NAME", help: "model on an OpenAI-compatible endpoint (or SQLMEND_MODEL); `mock`: the built-in mock\nmodel, in process, no endpoint (answers from the gold SQL: not a measurement)" },
  mockErrorRate: { type: "number", metavar: "R", min: 0, max: 1, help: "--model mock: the share of questions whose first SQL it gets wrong (default 0.3;\nwhich ones is fixed by --seed)" },
  baseUrl: { type: "string", metavar: "URL", help: "endpoint, e.g. http://127.0.0.1:11434/v1 (or OPENAI_BASE_URL); key from OPENAI_API_KEY" },
  config: { type: "string", metavar: "FILE", help: "model config JSON (default ./sqlmend.config.json when present)" },
  roleModel: { type: "record", metavar: "ROLE=NAME", help: "a different model for one agent role (repeatable)" },
  temperature: { type: "number", metavar: "T", help: "sampling temperature of every role (default: the config's, else the model's)" },
  seed: { type: "int", min: 0, help: "sent as the requests' seed, recorded in run.json, part of the response cache's key" },
  requestTimeoutMs: { type: "int", min: 1, help: "a model request's time limit" },
  maxRetries: { type: "int", min: 0, help: "retries of a failed model request" },
  maxRequests: { type: "int", min: 1, help: "model requests in flight, all roles" },
  stream: { type: "boolean", help: "stream replies" },
  structuredMethod: { type: "string", choices: STRUCTURED_METHODS, help: "how structured replies are asked for (default auto: each in turn)" },
  embeddingModel: { type: "string", metavar: "NAME", help: "embeddings for linking and few-shot retrieval (or SQLMEND_EMBEDDING_MODEL; default: lexical)" },
  embeddingBaseUrl: { type: "string", metavar: "URL", help: "the embedding endpoint when it is not --base-url (or SQLMEND_EMBEDDING_BASE_URL)" },
  embeddingFallback: { type: "string", choices: ["lexical"], help: "rank lexically when the embedding endpoint fails, counted per question and in the\nreport (default: such a question is failed, and --resume asks again)" },
  endpointAlias: { type: "string", metavar: "NAME", help: "names the server in the run's identity and the cache key (or SQLMEND_ENDPOINT_ALIAS);\nwithout it a URL is recorded, not compared: servers of one model are interchangeable" },
  cache: {
    type: "string",
    metavar: "on|off|read|refresh",
    help: "model replies cached in <data dir>/responses.sqlite (default on, or SQLMEND_CACHE):\nread uses hits and never writes, refresh never reads and overwrites;\n--cache redis://HOST:PORT keeps it in Redis, shared by every machine that names it",
  },
});

/** The graph's shared knobs, node swaps, a graph module, and where the threads are checkpointed. */
export const GRAPH_CONFIG = defineConfig({
  maxFixRounds: { type: "int", min: 0, help: "execution-error fix rounds (default 3)" },
  fewShot: { type: "int", metavar: "K", min: 0, help: "examples retrieved from the training split (default 0)" },
  schemaMaxChars: { type: "int", min: 200, help: "schema size budget in prompts (default 24000)" },
  queryTimeoutMs: { type: "int", min: 1, help: "per-query time limit (default 30000)" },
  node: { type: "record", metavar: "SLOT=MODULE", help: "replace a node: MODULE's default export is a NodeFactory (repeatable); its\n`export const options = defineOptions({...})` become flags of the run" },
  graph: { type: "string", metavar: "MODULE", help: "run a graph of your own: MODULE's default export is a graph made with defineGraph\n(instead of naming a built-in graph)" },
  checkpoints: { type: "string", metavar: "FILE|memory|postgres://USER:PASS@HOST:PORT/DB", help: "checkpoint store (default .sqlmend/checkpoints.sqlite)" },
});

/** A corrector graph's initial SQL and which of it is corrected. */
export const CORRECTION_CONFIG = defineConfig({
  initial: { type: "string", metavar: "GRAPH|FILE", help: "initial SQL from a generator graph (default baseline) or a predictions file" },
  correct: { type: "string", choices: ["all", "errors", "incorrect"], help: "which initial SQL to correct (incorrect: eval only, gold as oracle)" },
});

/** Every option shared by `ask` and the run commands: models, graph, correction. */
export const RUN_CONFIG = defineConfig({ ...MODEL_CONFIG, ...GRAPH_CONFIG, ...CORRECTION_CONFIG });
export type RunConfig = ConfigOf<typeof RUN_CONFIG>;
export type ModelConfig = ConfigOf<typeof MODEL_CONFIG>;

/** One question on one database, as the commands that take a single question name it (`ask`, `link`). */
export const QUESTION_CONFIG = defineConfig({
  question: { type: "string", metavar: "TEXT", help: "the question (required)" },
  db: { type: "string", metavar: "FILE", help: "the SQLite database (read-only; required)" },
  evidence: { type: "string", metavar: "TEXT", help: "external knowledge, as BIRD's evidence" },
  descriptionDir: { type: "string", metavar: "DIR", help: "BIRD-style database_description/ folder for column descriptions (default: beside the database)" },
});

/** Which benchmark and which of its questions. */
export const SELECTION_CONFIG = defineConfig({
  bench: { type: "string", metavar: "DIR|minibench", help: "Spider or BIRD layout (BIRD mini-dev and Spider's test split included), or the\nproject's own small benchmark" },
  split: { type: "string", choices: SPLITS, help: "default dev (a layout without dev: its one evaluation split)" },
  questions: {
    type: "string",
    metavar: "FILE",
    help: "another question file (Spider or BIRD format, e.g. a Spider variant) over the\n--bench split's databases; with --db-dir DIR: your own questions (.jsonl, .csv\nor .json: question, db_id, optional gold, evidence, difficulty, id) over DIR's\ndatabases (DIR/<db_id>.sqlite or DIR/<db_id>/<db_id>.sqlite)",
  },
  dbDir: { type: "string", metavar: "DIR", help: "with --questions FILE: the databases of your own questions, in place of --bench" },
  limit: { type: "int", min: 1, help: "the first N questions in file order" },
  ids: { type: "list", metavar: "A,B,...", help: "these questions (ids as in the benchmark: BIRD question_id, Spider 0-based index)" },
  sample: { type: "int", min: 1, help: "N questions, each database its share (seeded; after --ids/--limit)" },
  sampleSeed: { type: "int", metavar: "S", min: 0, help: "the sample's seed: the same seed, the same questions (default 1)" },
});
export type SelectionConfig = ConfigOf<typeof SELECTION_CONFIG>;

/** Where a command's questions come from: a benchmark's split, another question file, or your own data. */
export const BENCHMARK_CONFIG = defineConfig({ bench: SELECTION_CONFIG.bench, split: SELECTION_CONFIG.split, questions: SELECTION_CONFIG.questions, dbDir: SELECTION_CONFIG.dbDir });

/** A run into an output folder: its questions, how many at once, the folder, resuming it. */
export const RUN_DIR_CONFIG = defineConfig({
  ...SELECTION_CONFIG,
  concurrency: { type: "int", metavar: "K", min: 1, help: "questions in flight (default 4); --max-requests caps model requests" },
  out: { type: "string", metavar: "DIR", help: "the run's output folder" },
  resume: { type: "boolean", help: "continue a killed or finished run in --out without redoing finished questions" },
});
export type RunDirConfig = ConfigOf<typeof RUN_DIR_CONFIG>;

/** The run-level option keys that are flags of every run (a `--node` module's option may not take one of their names). */
export const RUN_OPTION_KEYS: readonly string[] = Object.keys(RUN_CONFIG);
