/**
 * The significance tests of a comparison: the Wilcoxon signed-rank test over paired sites (does the
 * candidate change the per-site means?) and one-way ANOVA over the runs of two or more groups (are
 * their means equal? as the thesis's Tables 5.1 and 6.1). Both two-sided.
 */
import { normalCdf, regularizedIncompleteBeta } from "./special-functions.js";

export interface WilcoxonResult {
  /** Pairs whose difference is not zero: only they are ranked (Wilcoxon's handling of zeros). */
  n: number;
  /** Pairs dropped because their difference is zero. */
  zeros: number;
  /** W+, the sum of the ranks of the positive differences. */
  statistic: number;
  z: number;
  pValue: number;
}

/**
 * Differences closer than this are one value: per-site means of equal runs can differ in their last
 * bits, and such noise must neither make a pair non-zero nor break a tie.
 */
const SAME_DIFFERENCE = 1e-9;

/**
 * Wilcoxon's signed-rank test with the normal approximation, as R's wilcox.test(exact = FALSE,
 * correct = TRUE): zero differences dropped, tied |differences| share their mean rank and shrink the
 * variance by Σ(t³ - t)/48, and a continuity correction of 1/2 towards the mean. null when no
 * difference is left to rank or every one is tied at the same size and sign (the variance is 0).
 */
export function wilcoxonSignedRank(differences: readonly number[]): WilcoxonResult | null {
  const nonZero = differences.filter((d) => Math.abs(d) > SAME_DIFFERENCE);
  const n = nonZero.length;
  if (n === 0) return null;
  const sorted = [...nonZero].sort((a, b) => Math.abs(a) - Math.abs(b));
  let statistic = 0;
  let tieCorrection = 0;
  for (let i = 0; i < n; ) {
    let j = i;
    while (j + 1 < n && Math.abs(sorted[j + 1]!) - Math.abs(sorted[i]!) <= SAME_DIFFERENCE) j++;
    const rank = (i + j) / 2 + 1;
    for (let k = i; k <= j; k++) if (sorted[k]! > 0) statistic += rank;
    const t = j - i + 1;
    tieCorrection += t ** 3 - t;
    i = j + 1;
  }
  const mean = (n * (n + 1)) / 4;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieCorrection / 48;
  if (!(variance > 0)) return null;
  const centred = statistic - mean;
  const z = (centred - Math.sign(centred) * 0.5) / Math.sqrt(variance);
  const pValue = Math.min(1, 2 * Math.min(normalCdf(z), normalCdf(-z)));
  return { n, zeros: differences.length - n, statistic, z, pValue };
}

export interface AnovaResult {
  f: number;
  dfBetween: number;
  dfWithin: number;
  pValue: number;
}

/**
 * One-way ANOVA's F test. null with fewer than two groups, no degree of freedom within the groups,
 * or no variation within them (F would be infinite or undefined).
 */
export function oneWayAnova(groups: readonly (readonly number[])[]): AnovaResult | null {
  const used = groups.filter((g) => g.length > 0);
  const total = used.reduce((n, g) => n + g.length, 0);
  const dfBetween = used.length - 1;
  const dfWithin = total - used.length;
  if (dfBetween < 1 || dfWithin < 1) return null;
  const grand = used.reduce((s, g) => s + g.reduce((a, b) => a + b, 0), 0) / total;
  let between = 0;
  let within = 0;
  for (const g of used) {
    const m = g.reduce((a, b) => a + b, 0) / g.length;
    between += g.length * (m - grand) ** 2;
    for (const v of g) within += (v - m) ** 2;
  }
  if (!(within > 0)) return null;
  const f = between / dfBetween / (within / dfWithin);
  return { f, dfBetween, dfWithin, pValue: fDistributionUpperTail(f, dfBetween, dfWithin) };
}

/** P(F >= f) for Snedecor's F with d1 and d2 degrees of freedom. */
export function fDistributionUpperTail(f: number, d1: number, d2: number): number {
  if (!(f >= 0)) throw new RangeError(`fDistributionUpperTail: f must be at least 0, not ${f}`);
  return regularizedIncompleteBeta(d2 / (d2 + d1 * f), d2 / 2, d1 / 2);
}
