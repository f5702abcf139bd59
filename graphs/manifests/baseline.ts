import { defineOptions } from "../../core/options.ts";
import { defineManifest } from "./manifest.ts";
import { SHARED_SLOT_INFO as S } from "./shared.ts";

/** The baseline's own knobs (flags `--link`, ...). */
export const baselineOptions = defineOptions({
  link: {
    type: "boolean",
    default: false,
    help: "link the question to columns and stored values first (slot link, role linker); the schema shows the matches",
  },
});

export const baselineManifest = defineManifest({
  name: "baseline",
  summary: "generate SQL (zero- or few-shot), execute, fix execution errors up to N times",
  kind: "generator",
  options: baselineOptions,
  slots: { link: S.link, schema: S.schema, generate: S.generate, execute: S.execute, fix: S.fix },
});

export const repairManifest = defineManifest({
  name: "repair",
  summary: "corrector: execute the given SQL and fix execution errors up to N times",
  kind: "corrector",
  slots: { schema: S.schema, execute: S.execute, fix: S.fix },
});
