import { type CliIO } from "../core/io.ts";
import { type RunModules } from "./run-options.ts";
import { type FlagValues } from "./run-values.ts";
/** What `sqlmend eval` prints for `--help` (the flags are `evalFlags`). */
export declare const EVAL_USAGE = "Usage: sqlmend eval GRAPH|--graph FILE --bench DIR|minibench --out DIR [--split dev|train|test|minidev] [--questions FILE]\n                    [--limit N] [--ids ID,...] [--concurrency K] [--resume] [--semantics bird|spider]\n                    [--keep-distinct] [--shard I/N]\n       sqlmend eval GRAPH --questions FILE.jsonl|.csv --db-dir DIR --out DIR [...]\n\n  --bench DIR|minibench     Spider or BIRD layout (BIRD mini-dev and Spider's test split included), or the\n                            project's own small benchmark\n  --split dev|train|test|minidev   default dev (a layout without dev: its one evaluation split)\n  --questions FILE          another question file (Spider or BIRD format, e.g. a Spider variant) over the\n                            --bench split's databases; with --db-dir DIR: your own questions (.jsonl, .csv\n                            or .json: question, db_id, optional gold, evidence, difficulty, id) over DIR's\n                            databases (DIR/<db_id>.sqlite or DIR/<db_id>/<db_id>.sqlite)\n  --out DIR                 results.jsonl (a line per question), predict_<split>.json (BIRD format),\n                            pred_<split>.sql (Spider format: a line per selected question in file order,\n                            so with --limit/--ids score the .json, whose ids are explicit, with\n                            'sqlmend score --only-predicted'), report.md, run.json\n  --limit N  --ids A,B,...  run a subset (ids as in the benchmark: BIRD question_id, Spider 0-based index)\n  --concurrency K           questions in flight (default 4); --max-requests caps model requests\n  --resume                  continue a killed or finished run in --out without redoing finished questions; it\n                            may add questions (a larger --limit, more --ids), never drop or change any, and\n                            refuses a run started by other sqlmend code or with another --node module\n  --semantics bird|spider   EX semantics (default: the benchmark's own)\n  --server URL              run the graphs on a LangGraph server (threads there; scoring here), e.g.\n                            http://127.0.0.1:2024 from 'npx @langchain/langgraph-cli dev'\n  --shard I/N               run the I-th of N shares of the selection (positions I-1, I-1+N, ... in file\n                            order), e.g. one per machine; 'sqlmend merge' joins the N --out folders\nModel:\n  --model NAME              model on an OpenAI-compatible endpoint (or SQLMEND_MODEL)\n  --base-url URL            endpoint, e.g. http://127.0.0.1:11434/v1 (or OPENAI_BASE_URL); key from OPENAI_API_KEY\n  --config FILE             model config JSON (default ./sqlmend.config.json when present)\n  --role-model ROLE=NAME    a different model for one agent role (repeatable)\n  --temperature T  --request-timeout-ms N  --max-retries N  --max-requests N (in flight, all roles)\n  --seed N                  sent as the requests' seed, recorded in run.json, part of the response cache's key\n  --stream                  stream replies  --structured-method auto|jsonSchema|functionCalling|jsonMode|text\n  --embedding-model NAME    embeddings for linking and few-shot retrieval (or SQLMEND_EMBEDDING_MODEL; default: lexical)\n  --embedding-base-url URL  the embedding endpoint when it is not --base-url (or SQLMEND_EMBEDDING_BASE_URL)\n  --embedding-fallback lexical  rank lexically when the embedding endpoint fails, counted per question and in the\n                            report (default: such a question is failed, and --resume asks again)\n  --endpoint-alias NAME     names the server in the run's identity and the cache key (or SQLMEND_ENDPOINT_ALIAS);\n                            without it a URL is recorded, not compared: servers of one model are interchangeable\n  --cache on|off|read|refresh  model replies cached in <data dir>/responses.sqlite (default on, or SQLMEND_CACHE):\n                            read uses hits and never writes, refresh never reads and overwrites;\n                            --cache redis://HOST:PORT keeps it in Redis, shared by every machine that names it\nGraph:\n  --max-fix-rounds N        execution-error fix rounds (default 3)\n  --few-shot K              examples retrieved from the training split (default 0)\n  --schema-max-chars N      schema size budget in prompts (default 24000)\n  --query-timeout-ms N      per-query time limit (default 30000)\n  --node SLOT=MODULE        replace a node: MODULE's default export is a NodeFactory (repeatable); its\n                            `export const options = defineOptions({...})` become flags of the run\n  --graph MODULE            run a graph of your own: MODULE's default export is a graph made with defineGraph\n                            (instead of naming a built-in graph)\n  --checkpoints FILE|memory|postgres://USER:PASS@HOST:PORT/DB\n                            checkpoint store (default .sqlmend/checkpoints.sqlite)\nCorrection (corrector graphs):\n  --initial GRAPH|FILE      initial SQL from a generator graph (default baseline) or a predictions file\n  --correct all|errors|incorrect   which initial SQL to correct (incorrect: eval only, gold as oracle)\n\n  Exit status: 0 every question answered; 3 questions failed (a model call got no reply, the graph could not\n  finish) or were not run (the endpoint looked down): --resume runs them again; 130 Ctrl-C, 143 SIGTERM,\n  129 SIGHUP (stopped: questions in flight finish, outputs are written, --resume continues); 1 user error; 2 usage.";
/** eval's flags: the run's (model, graph knobs, node swaps, correction), every graph's own options, the selection's, eval's own. */
export declare const evalFlags: (modules?: RunModules) => {
    readonly semantics: {
        readonly type: "string";
    };
    readonly "keep-distinct": {
        readonly type: "boolean";
    };
    readonly shard: {
        readonly type: "string";
    };
    readonly server: {
        readonly type: "string";
    };
    readonly bench: {
        readonly type: "string";
    };
    readonly split: {
        readonly type: "string";
    };
    readonly questions: {
        readonly type: "string";
    };
    readonly "db-dir": {
        readonly type: "string";
    };
    readonly limit: {
        readonly type: "string";
    };
    readonly ids: {
        readonly type: "string";
        readonly multiple: true;
    };
    readonly concurrency: {
        readonly type: "string";
    };
    readonly out: {
        readonly type: "string";
    };
    readonly resume: {
        readonly type: "boolean";
    };
    readonly model: {
        readonly type: "string";
    };
    readonly "base-url": {
        readonly type: "string";
    };
    readonly config: {
        readonly type: "string";
    };
    readonly "role-model": {
        readonly type: "string";
        readonly multiple: true;
    };
    readonly temperature: {
        readonly type: "string";
    };
    readonly seed: {
        readonly type: "string";
    };
    readonly "request-timeout-ms": {
        readonly type: "string";
    };
    readonly "max-retries": {
        readonly type: "string";
    };
    readonly "max-requests": {
        readonly type: "string";
    };
    readonly stream: {
        readonly type: "boolean";
    };
    readonly "structured-method": {
        readonly type: "string";
    };
    readonly "embedding-model": {
        readonly type: "string";
    };
    readonly "embedding-base-url": {
        readonly type: "string";
    };
    readonly "endpoint-alias": {
        readonly type: "string";
    };
    readonly "embedding-fallback": {
        readonly type: "string";
    };
    readonly cache: {
        readonly type: "string";
    };
    readonly "max-fix-rounds": {
        readonly type: "string";
    };
    readonly "few-shot": {
        readonly type: "string";
    };
    readonly "schema-max-chars": {
        readonly type: "string";
    };
    readonly "query-timeout-ms": {
        readonly type: "string";
    };
    readonly node: {
        readonly type: "string";
        readonly multiple: true;
    };
    readonly graph: {
        readonly type: "string";
    };
    readonly checkpoints: {
        readonly type: "string";
    };
    readonly initial: {
        readonly type: "string";
    };
    readonly correct: {
        readonly type: "string";
    };
};
/** The files an eval run writes in its output folder. */
export interface EvalFiles {
    results: string;
    report: string;
    reportHtml: string;
    run: string;
    /** BIRD format (`predict_<split>.json`) and Spider format (`pred_<split>.sql`). */
    predictions: string[];
}
/** What an eval run did: the figures its report prints, and where its files are. */
export interface EvalResult {
    /** The launcher's exit status (`core/exit.ts`): 0 every question answered, 3 some failed or not run, 130/143/129 stopped. */
    exitCode: number;
    outDir: string;
    /** Execution accuracy in percent over the answered questions with gold SQL; null when none was scored. */
    ex: number | null;
    correct: number;
    /** Answered questions with gold SQL (EX's denominator). */
    scored: number;
    /** Not answered (a model call got no reply, the graph could not finish): never scored; --resume runs them again. */
    failed: number;
    /** Selected but not run (stopped, or the endpoint looked down). */
    notRun: number;
    /** Left out before running (database missing), with their reasons in report.md. */
    skipped: number;
    /** Questions with a record (answered or failed). */
    questions: number;
    inputTokens: number;
    outputTokens: number;
    /** Chat-model calls (cached ones included). */
    calls: number;
    files: EvalFiles;
}
/**
 * The options of `sqlmend eval`, by name (camelCase): `graph` (a built-in's name) or `graphModule` (a file made with
 * `defineGraph`), `bench` (a folder, or "minibench"), `out`, and any other eval flag — `split`, `questions`, `dbDir`,
 * `limit`, `ids`, `concurrency`, `resume`, `semantics`, `model`, `baseUrl`, `config`, `roleModel: { ROLE: MODEL }`,
 * `temperature`, `seed`, `cache`, `maxFixRounds`, `fewShot`, `node: { SLOT: FILE }`, `checkpoints`, `initial`,
 * `correct`, `shard`, `server`, ... — and `options`, the graph's own (camelCase, as it declares them).
 */
export interface EvalOptions {
    graph?: string;
    graphModule?: string;
    bench?: string;
    out: string;
    options?: Record<string, unknown>;
    [flag: string]: unknown;
}
/**
 * Runs a graph over a benchmark's questions, scores them and writes the run folder `sqlmend eval` writes
 * (results.jsonl, predictions, report.md, report.html, run.json): the launcher's eval is this, given its flags.
 */
export declare function runEval(options: EvalOptions, io?: CliIO): Promise<EvalResult>;
/** eval from its flag values (the launcher's parse, or `runEval`'s): the one body both run. */
export declare function evaluate(input: {
    values: FlagValues;
    positionals: string[];
    modules: RunModules;
    argv?: string[];
}, io: CliIO): Promise<EvalResult>;
