import { quickHash } from "../hash.js";
/**
 * The seed of sample `index` of a role under `--seed` (undefined without one): made from the run's seed and the index,
 * so N samples of one prompt are N draws, not one reply N times (a server honouring `seed` repeats itself).
 */
export function sampleSeed(models, role, index) {
    const runSeed = models.forRole(role).settings.seed;
    return runSeed === undefined ? undefined : Number.parseInt(quickHash(`${runSeed}:${index}`).slice(0, 8), 16) & 0x7fffffff;
}
