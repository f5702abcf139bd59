import { seededRandom } from "../../tools/hash.ts";
import { type Interval, Z95 } from "./eval-report.ts";

// The statistics the comparisons and tables use: McNemar's exact test and Holm's correction, Student's t interval,
// a paired difference's interval (Newcombe), and a seeded bootstrap over questions × repeats.

/** Exact two-sided McNemar test: binomial on the discordant pairs. */
export function mcnemarP(onlyA: number, onlyB: number): number {
  const n = onlyA + onlyB;
  if (n === 0) return 1;
  const k = Math.min(onlyA, onlyB);
  let logC = 0; // log C(n, 0)
  let tail = 0;
  for (let i = 0; i <= k; i++) {
    if (i > 0) logC += Math.log(n - i + 1) - Math.log(i);
    tail += Math.exp(logC - n * Math.LN2);
  }
  return Math.min(1, 2 * tail);
}

/** Holm's step-down adjustment of m p-values (same order as given): p_(i) · (m − i + 1), kept monotone, capped at 1. */
export function holm(ps: number[]): number[] {
  const m = ps.length;
  const order = ps.map((p, i) => [p, i] as const).sort((x, y) => x[0] - y[0]);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach(([p, i], rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    adjusted[i] = running;
  });
  return adjusted;
}


// Student's t 0.975 quantiles for 1..30 degrees of freedom.
const T975 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11, 2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042];

/** Student's t 0.975 quantile (a table to 30 degrees of freedom, Cornish–Fisher beyond). */
export function t975(df: number): number {
  if (df <= T975.length) return T975[df - 1]!;
  const z = Z95;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}

/** 95 % t-interval of the mean of a percentage measured several times (≥ 2), clamped to 0..100; null for fewer. */
export function tInterval(values: number[]): Interval | null {
  const n = values.length;
  if (n < 2) return null;
  const m = values.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(values.reduce((a, x) => a + (x - m) ** 2, 0) / (n - 1));
  const half = (t975(n - 1) * sd) / Math.sqrt(n);
  return { low: Math.max(0, m - half), high: Math.min(100, m + half) };
}

/**
 * The paired difference of two proportions (first − second, in percentage points) with Newcombe's hybrid score 95 %
 * interval for paired data (Newcombe 1998, method 10): from the 2×2 table of the same questions — both right, only the
 * first, only the second, neither (counts, or means over repeats). Never zero width on a small sample. Null for none.
 */
export function pairedDifference(both: number, onlyFirst: number, onlySecond: number, neither: number): { difference: number; low: number; high: number } | null {
  const n = both + onlyFirst + onlySecond + neither;
  if (n <= 0) return null;
  const p1 = (both + onlyFirst) / n;
  const p2 = (both + onlySecond) / n;
  const w1 = wilsonFraction(p1, n);
  const w2 = wilsonFraction(p2, n);
  const denominator = (both + onlyFirst) * (onlySecond + neither) * (both + onlySecond) * (onlyFirst + neither);
  // Newcombe's correlation estimate, shrunk by n/2 when positive (without it all-concordant pairs give zero width).
  const ad = both * neither;
  const bc = onlyFirst * onlySecond;
  const phi = denominator > 0 ? (ad > bc ? Math.max(ad - bc - n / 2, 0) : ad - bc) / Math.sqrt(denominator) : 0;
  const d = p1 - p2;
  const down = (p1 - w1.low) ** 2 - 2 * phi * (p1 - w1.low) * (w2.high - p2) + (w2.high - p2) ** 2;
  const up = (w1.high - p1) ** 2 - 2 * phi * (w1.high - p1) * (p2 - w2.low) + (p2 - w2.low) ** 2;
  return { difference: d * 100, low: Math.max(-1, d - Math.sqrt(Math.max(0, down))) * 100, high: Math.min(1, d + Math.sqrt(Math.max(0, up))) * 100 };
}

/** Wilson's 95 % interval of a proportion p observed over n (n may stand for a mean over repeats), as fractions. */
function wilsonFraction(p: number, n: number): { low: number; high: number } {
  const z2 = Z95 * Z95;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z95 * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}


/**
 * EX's 95 % interval over questions × repeats: a seeded percentile bootstrap that draws questions with replacement and,
 * for each, one of its repeats — so both which questions were drawn and how a repeat answered them count — widened to
 * at least the Wilson interval of the mean EX over the questions (a small sample never gets a zero-width interval).
 * `verdicts[q][k]`: question q right in repeat k. Null without questions.
 */
export function bootstrapInterval(verdicts: boolean[][], draws = 2000, seed = 1): Interval | null {
  const questions = verdicts.filter((v) => v.length);
  const n = questions.length;
  if (!n) return null;
  const random = seededRandom(seed);
  const means: number[] = [];
  for (let b = 0; b < draws; b++) {
    let right = 0;
    for (let i = 0; i < n; i++) {
      const q = questions[Math.floor(random() * n)]!;
      if (q[Math.floor(random() * q.length)]) right++;
    }
    means.push((right / n) * 100);
  }
  means.sort((x, y) => x - y);
  const mean = (questions.reduce((a, q) => a + q.filter(Boolean).length / q.length, 0) / n);
  const w = wilsonFraction(mean, n);
  return { low: Math.min(means[Math.floor(0.025 * (draws - 1))]!, w.low * 100), high: Math.max(means[Math.ceil(0.975 * (draws - 1))]!, w.high * 100) };
}
