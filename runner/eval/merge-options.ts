import { type ConfigInput, type ConfigOf, defineConfig } from "../../core/config.ts";

// `merge`'s options apart from the merge (merge-shards.ts), so `sqlmend merge --help` and its flag checks load nothing heavy.

/** `merge`'s options: the shard folders (each of 1..N once) and a new folder for the merged run. */
export const MERGE_CONFIG = defineConfig({
  shards: { type: "strings", metavar: "DIR", help: "the --out folders of 'eval --shard I/N', each I once" },
  out: { type: "string", metavar: "DIR", help: "a new folder for the merged run" },
});

export type MergeConfig = ConfigOf<typeof MERGE_CONFIG>;
export type MergeOptions = ConfigInput<typeof MERGE_CONFIG> & { shards: string | readonly string[]; out: string };

