/**
 * An effect size with its confidence interval: the difference of a statistic (the mean by default)
 * between two independent samples, candidate - baseline, with a percentile bootstrap interval
 * (Efron): resample each side with replacement, recompute, take the middle `level` of the
 * differences. Nonparametric, so skewed completion times need no normality; seeded, so a report
 * is the same each time it is written.
 */
import { mean } from "../accuracy.js";
import { mulberry32 } from "../seeded-random.js";

export interface Difference {
  estimate: number;
  low: number;
  high: number;
  level: number;
}

export function bootstrapDifference(baseline: readonly number[], candidate: readonly number[], o: { statistic?: (xs: readonly number[]) => number; resamples?: number; level?: number; seed?: number } = {}): Difference | null {
  if (baseline.length === 0 || candidate.length === 0) return null;
  const statistic = o.statistic ?? mean;
  const resamples = o.resamples ?? 2000;
  const level = o.level ?? 0.95;
  const random = mulberry32(o.seed ?? 1);
  const resample = (xs: readonly number[]) => Array.from({ length: xs.length }, () => xs[Math.floor(random() * xs.length)]!);
  const differences = Array.from({ length: resamples }, () => statistic(resample(candidate)) - statistic(resample(baseline))).sort((a, b) => a - b);
  const at = (q: number) => differences[Math.min(resamples - 1, Math.max(0, Math.floor(q * resamples)))]!;
  return { estimate: statistic(candidate) - statistic(baseline), low: at((1 - level) / 2), high: at(1 - (1 - level) / 2), level };
}
