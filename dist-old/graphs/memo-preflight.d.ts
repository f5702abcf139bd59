import type { RunPreflight } from "./spec.ts";
/**
 * memo-sql's and memo-refine's check before an eval: the memory must not hold the evaluated benchmark's answers — no
 * entry built from the evaluated benchmark and split (any of its questions: Spider's dev is largely paraphrase pairs
 * sharing their gold SQL, so dev 1's entry is dev 0's answer), none made from an evaluated question's text, none whose
 * gold SQL (canonical spelling, same database) is an evaluated question's gold (`MemoryStore.entriesFrom`). The
 * per-question self-exclusion hides only the question's own entry. Refused unless `--allow-memory-overlap`; either way
 * the report records the memory's identity and size, and what overlaps.
 */
export declare function memoPreflight(run: RunPreflight): Record<string, unknown>;
