import { type ConfigOf, defineConfig } from "../../../core/config.ts";
import { MODEL_CONFIG } from "../../run/run-config.ts";

// The model options of every memo command: the run's, but for the embedding fallback and the endpoint alias (eval's).
const { embeddingFallback: _fallback, endpointAlias: _alias, ...memoModelDefs } = MODEL_CONFIG;
export const MEMO_MODEL_CONFIG = defineConfig(memoModelDefs);
export type MemoModelConfig = ConfigOf<typeof MEMO_MODEL_CONFIG>;
