/**
 * Lantern's error beside the emulated browser's, against the same Chromium replays: per site and
 * condition the median of each client's runs is the measurement, Chromium's the reference, and
 * across the cells where both predictors have a value, the median and p90 absolute percentage
 * error, per protocol stack (h2, h3, h2/mptcp: Lantern's one prediction stands beside each). Every
 * cell with Chromium's value is listed with both signed errors. Pure, no I/O.
 */
import { absolutePercentageError, median, percentile, type AccuracyMetric, type AccuracySample, type LanternCell } from "@pagepath/results";

export type { LanternCell };

/**
 * The metrics compared: each sample metric (fcp, ... in an accuracy sample's `metrics`), and
 * which of Lantern's predictions stands beside it. Lantern predicts no load event: its Interactive
 * (the end of the last long task, at least LCP) is set beside Chromium's load.
 */
export const COMPARED = [
  { metric: "FCP", sampleMetric: "fcp", lantern: "fcpMs", lanternLabel: "FCP" },
  { metric: "LCP", sampleMetric: "lcp", lantern: "lcpMs", lanternLabel: "LCP" },
  { metric: "load", sampleMetric: "load", lantern: "interactiveMs", lanternLabel: "Interactive" },
] as const;

export interface ErrorStats {
  /** Cells compared: those with a value from Chromium and from both predictors. */
  cells: number;
  medianApePercent: number | null;
  p90ApePercent: number | null;
}

export interface MetricComparison {
  /** The runs' protocol stack, as stackLabel names it. */
  stack: string;
  metric: string;
  lanternLabel: string;
  emulated: ErrorStats;
  lantern: ErrorStats;
  /** Per site and condition: Chromium's median, each predictor's value and signed percentage error. */
  cells: { site: string; condition: string; chromiumMs: number; emulatedMs: number | null; lanternMs: number | null; emulatedErrorPercent: number | null; lanternErrorPercent: number | null }[];
}

const cellKey = (site: string, condition: string) => `${site}|${condition}`;

function stats(apes: number[]): ErrorStats {
  return { cells: apes.length, medianApePercent: apes.length ? median(apes) : null, p90ApePercent: apes.length ? percentile(apes, 90) : null };
}

/** The median of each client's measured values of one metric over one stack, per site and condition (a failed run has none). */
function medians(samples: readonly AccuracySample[], stack: string, client: string, metric: AccuracyMetric): Map<string, number> {
  const values = new Map<string, number[]>();
  for (const r of samples) {
    if (r.client !== client || r.protocol !== stack) continue;
    const v = r.metrics[metric];
    if (typeof v !== "number" || !Number.isFinite(v)) continue;
    const k = cellKey(r.site, r.condition);
    values.set(k, [...(values.get(k) ?? []), v]);
  }
  return new Map([...values].map(([k, vs]) => [k, median(vs)]));
}

const signedPercent = (predicted: number, actual: number) => ((predicted - actual) / actual) * 100;

/** Per stack of the samples (in code-point order), per metric in COMPARED order. */
export function compareWithChromium(lantern: readonly LanternCell[], samples: readonly AccuracySample[]): MetricComparison[] {
  const stacks = [...new Set(samples.map((r) => r.protocol))].sort();
  return stacks.flatMap((stack) => COMPARED.map((c) => compareOne(stack, c, lantern, samples)));
}

function compareOne(stack: string, { metric, sampleMetric, lantern: field, lanternLabel }: (typeof COMPARED)[number], lantern: readonly LanternCell[], samples: readonly AccuracySample[]): MetricComparison {
  const chromium = medians(samples, stack, "chromium", sampleMetric);
  const emulated = medians(samples, stack, "emulated", sampleMetric);
  const cells: MetricComparison["cells"] = [];
  for (const l of lantern) {
    const chromiumMs = chromium.get(cellKey(l.site, l.condition));
    if (chromiumMs === undefined || !(chromiumMs > 0)) continue;
    const emulatedMs = emulated.get(cellKey(l.site, l.condition)) ?? null;
    const lanternMs = l[field];
    cells.push({
      site: l.site,
      condition: l.condition,
      chromiumMs,
      emulatedMs,
      lanternMs,
      emulatedErrorPercent: emulatedMs === null ? null : signedPercent(emulatedMs, chromiumMs),
      lanternErrorPercent: lanternMs === null ? null : signedPercent(lanternMs, chromiumMs),
    });
  }
  // Both predictors on the same cells, so that neither's figure leaves out cells the other had to face.
  const both = cells.filter((c) => c.emulatedMs !== null && c.lanternMs !== null);
  const apes = (pick: (c: MetricComparison["cells"][number]) => number | null) => both.map((c) => absolutePercentageError(pick(c)!, c.chromiumMs));
  return { stack, metric, lanternLabel, emulated: stats(apes((c) => c.emulatedMs)), lantern: stats(apes((c) => c.lanternMs)), cells };
}
