/**
 * Lantern's error beside the emulated browser's, against the same Chromium replays: per site and
 * condition the median of each client's runs is the measurement, Chromium's the reference, and
 * across the cells where both predictors have a value, the median and p90 absolute percentage
 * error, per protocol stack (h2, h3, h2/mptcp: Lantern's one prediction stands beside each). Every
 * cell with Chromium's value is listed with both signed errors. Pure, no I/O.
 */
import { absolutePercentageError, median, percentile, stackLabel, type RunResult } from "@pagepath/results";

/** Lantern's predictions for one site under one condition (condition named as the runs name it). */
export interface LanternCell {
  site: string;
  condition: string;
  fcpMs: number | null;
  lcpMs: number | null;
  interactiveMs: number | null;
  /** Why Lantern gave nothing for this cell, or null. */
  error: string | null;
}

/**
 * The metrics compared: each run metric (firstContentfulPaintMs, ... in a run's `metrics`), and
 * which of Lantern's predictions stands beside it. Lantern predicts no load event: its Interactive
 * (the end of the last long task, at least LCP) is set beside Chromium's load.
 */
export const COMPARED = [
  { metric: "FCP", runMetric: "firstContentfulPaintMs", lantern: "fcpMs", lanternLabel: "FCP" },
  { metric: "LCP", runMetric: "largestContentfulPaintMs", lantern: "lcpMs", lanternLabel: "LCP" },
  { metric: "load", runMetric: "loadMs", lantern: "interactiveMs", lanternLabel: "Interactive" },
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

/** The median of each client's measured values of one metric over one stack, per site and condition. */
function medians(runs: readonly RunResult[], stack: string, client: string, runMetric: string): Map<string, number> {
  const values = new Map<string, number[]>();
  for (const r of runs) {
    if (r.client !== client || r.status !== "ok" || stackLabel(r.configuration) !== stack) continue;
    const v = (r.metrics as unknown as Record<string, number | null | undefined>)[runMetric];
    if (typeof v !== "number" || !Number.isFinite(v)) continue;
    const k = cellKey(r.site.name, r.configuration.network.name);
    values.set(k, [...(values.get(k) ?? []), v]);
  }
  return new Map([...values].map(([k, vs]) => [k, median(vs)]));
}

const signedPercent = (predicted: number, actual: number) => ((predicted - actual) / actual) * 100;

/** Per stack of the runs (in code-point order), per metric in COMPARED order. */
export function compareWithChromium(lantern: readonly LanternCell[], runs: readonly RunResult[]): MetricComparison[] {
  const stacks = [...new Set(runs.map((r) => stackLabel(r.configuration)))].sort();
  return stacks.flatMap((stack) => COMPARED.map((c) => compareOne(stack, c, lantern, runs)));
}

function compareOne(stack: string, { metric, runMetric, lantern: field, lanternLabel }: (typeof COMPARED)[number], lantern: readonly LanternCell[], runs: readonly RunResult[]): MetricComparison {
  const chromium = medians(runs, stack, "chromium", runMetric);
  const emulated = medians(runs, stack, "emulated", runMetric);
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
