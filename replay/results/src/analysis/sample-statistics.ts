/** The usual summary of a sample of times; null where a statistic needs more values than there are. */
import { mean, median, percentile } from "../accuracy.js";

export interface SampleStatistics {
  meanMs: number | null;
  medianMs: number | null;
  /** Hyndman and Fan's type 7, as `percentile`. */
  p90Ms: number | null;
  /** Sample standard deviation (n - 1); null below two values. */
  sdMs: number | null;
}

export function sampleStatistics(values: readonly number[]): SampleStatistics {
  if (values.length === 0) return { meanMs: null, medianMs: null, p90Ms: null, sdMs: null };
  return { meanMs: mean(values), medianMs: median(values), p90Ms: percentile(values, 90), sdMs: sampleStandardDeviation(values) };
}

export function sampleStandardDeviation(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  const m = mean(values);
  return Math.sqrt(values.reduce((s, v) => s + (v - m) ** 2, 0) / (values.length - 1));
}
