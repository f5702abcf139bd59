import { MULTIPLE_PROMPT_OPTIONS, SELF_CONSISTENCY_OPTIONS, SELF_DEBUGGING_OPTIONS } from "../../nodes/baselines/options.ts";
import { readOptions } from "../../core/options.ts";
import { defineManifest } from "./manifest.ts";
import { SHARED_SLOT_INFO as SHARED } from "./shared.ts";

/** MAGIC Table 1's guideline-independent baselines, as correctors of the SQL they are given (`--initial`). */

const VOTING_SLOTS = {
  sample: {
    summary: "write the payload's samples (count, default 1) from the generation prompt in one request with n, and execute them: a candidate each",
    role: "sampler",
    payload: "SamplePayload",
    reads: ["index", "question", "evidence", "dbPath", "schemaText", "tableOrder", "count"],
    writes: ["candidates"],
    requires: ["candidates"],
  },
  vote: {
    summary: "the SQL of the most frequent execution result; fastest SQL on a tie; the initial SQL when no sample executes",
    reads: ["candidates", "initialSql"],
    writes: ["sql", "sampleVote"],
    requires: ["sql", "sampleVote"],
  },
  execute: SHARED.execute,
} as const;

const VOTING_STATE = { value: "VotingStateValue", update: "VotingStateUpdate" } as const;

export const selfConsistencyManifest = defineManifest({
  name: "self-consistency",
  summary: "corrector: N samples of the generation prompt, executed; the SQL of the most frequent result (Wang et al., 2022)",
  kind: "corrector",
  stateType: VOTING_STATE,
  options: SELF_CONSISTENCY_OPTIONS,
  slots: {
    schema: SHARED.schema,
    prompts: {
      summary: "N samples of one generation prompt, in one Send (one request with n = N)",
      reads: ["sql", "question", "evidence", "dbPath", "schemaText"],
      writes: ["initialSql"],
      returns: "Command",
      routesTo: ["sample"],
      requires: ["initialSql"],
    },
    ...VOTING_SLOTS,
  },
  // One request for all samples (`n`), no re-ask (a reply without SQL is a sample without SQL). Where the server refuses
  // n: that request and one per sample; where it returns fewer choices: one per missing sample.
  calls: (options: Record<string, unknown>) => {
    const { samples } = readOptions(SELF_CONSISTENCY_OPTIONS, options);
    return { min: 1, max: samples === 1 ? 1 : samples + 1, typical: 1, note: "--samples + 1 requests where the server refuses n" };
  },
});

export const multiplePromptManifest = defineManifest({
  name: "multiple-prompt",
  summary: "corrector: up to N prompts with the tables in different orders, executed; the SQL of the most frequent result (Lee et al., 2024)",
  kind: "corrector",
  stateType: VOTING_STATE,
  options: MULTIPLE_PROMPT_OPTIONS,
  slots: {
    prompts: {
      summary: "the schema with its tables in up to N distinct orders, one prompt and one Send each",
      reads: ["sql", "question", "evidence", "dbId", "questionId", "dbPath", "descriptionDir"],
      writes: ["initialSql"],
      returns: "Command",
      routesTo: ["sample"],
      requires: ["initialSql"],
    },
    ...VOTING_SLOTS,
  },
  // One sampler call per distinct table order: N, or fewer when the database has fewer orders (t tables: t!).
  calls: (options: Record<string, unknown>) => {
    const { samples } = readOptions(MULTIPLE_PROMPT_OPTIONS, options);
    return { min: 1, max: samples, typical: samples, note: "fewer than --samples when the database's tables have fewer orders" };
  },
});

export const selfDebuggingManifest = defineManifest({
  name: "self-debugging",
  summary: "corrector: explain the SQL and its execution, judge it, correct it from the explanation until judged correct (Chen et al., 2023)",
  kind: "corrector",
  stateType: { value: "SelfDebuggingStateValue", update: "SelfDebuggingStateUpdate" },
  options: SELF_DEBUGGING_OPTIONS,
  slots: {
    schema: SHARED.schema,
    execute: SHARED.execute,
    explain: {
      summary: "explain the question and the SQL with its execution feedback; verdict correct or wrong",
      role: "explainer",
      reads: ["schemaText", "question", "evidence", "sql", "execution", "rounds", "explanations"],
      writes: ["initialSql", "explanations", "verdict", "stopReason"],
      requires: ["verdict", "stopReason"],
    },
    debug: {
      summary: "correct the SQL from the explanation",
      role: "debugger",
      reads: ["schemaText", "question", "evidence", "sql", "execution", "explanations", "rounds"],
      writes: ["sql", "rounds"],
      requires: ["rounds"],
    },
  },
  // explain → (debug → execute → explain)* : one explanation when judged correct at once; at the turn limit
  // maxTurns rewrites and maxTurns + 1 explanations.
  calls: (options: Record<string, unknown>) => {
    const { maxTurns } = readOptions(SELF_DEBUGGING_OPTIONS, options);
    return { min: 1, max: 2 * maxTurns + 1 };
  },
});
