import type { ModelProvider } from "./models.ts";
/**
 * The seed of sample `index` of a role under `--seed` (undefined without one): made from the run's seed and the index,
 * so N samples of one prompt are N draws, not one reply N times (a server honouring `seed` repeats itself).
 */
export declare function sampleSeed(models: ModelProvider, role: string, index: number): number | undefined;
