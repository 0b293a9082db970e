/**
 * How close the emulated browser's times come to Chromium's, per metric (load, DOMContentLoaded,
 * first and largest contentful paint) and per protocol. A cell is a site under one condition
 * (network, server model, ... as the caller names it); within a cell each client's runs are summed
 * up by their median, and the emulated median is compared with Chromium's: its absolute percentage
 * error (APE) and signed error. Beside it, Chromium's own run-to-run spread in the cell: how far each
 * Chromium run lies from the median of the cell's other Chromium runs (leave one out, so a run is
 * never compared with itself), the floor under any predictor's error. Across cells: the median, 90th
 * percentile and mean APE, Spearman's rank correlation (does the emulator order cells as Chromium
 * does, even where its absolute times are off), and the median and p90 of Chromium's spread. Pure
 * functions, no I/O.
 */
import type { Client } from "./run-result.js";

export const ACCURACY_METRICS = ["load", "dcl", "fcp", "lcp"] as const;
export type AccuracyMetric = (typeof ACCURACY_METRICS)[number];

/** What each metric is called in sentences. */
export const ACCURACY_METRIC_NOUNS: Record<AccuracyMetric, string> = {
  load: "load time", dcl: "DOMContentLoaded time", fcp: "first contentful paint", lcp: "largest contentful paint",
};

/** One run: its times by metric, null (or absent) where the run has none. */
export interface AccuracySample {
  site: string;
  condition: string;
  protocol: string;
  client: Client;
  metrics: Partial<Record<AccuracyMetric, number | null>>;
  /** Why a metric is null, where the run says (a page with no LCP candidate). */
  missing?: Partial<Record<AccuracyMetric, string | null>>;
  /** What the run's LCP painted (`lcpElementKey`): null when the run names none, absent in results made before runs named it. */
  lcpElement?: string | null;
}

export interface ClientTimes {
  /** Samples of the client in the cell. */
  runs: number;
  /** Those with a value: the median is theirs. */
  measured: number;
  medianMs: number | null;
}

export interface AccuracyCell {
  site: string;
  condition: string;
  chromium: ClientTimes;
  emulated: ClientTimes;
  /** |emulated - chromium| / chromium x 100, of the medians. */
  apePercent: number;
  /** emulated - chromium: positive when the emulator is slower. */
  signedErrorMs: number;
  signedErrorPercent: number;
  /** Median over the cell's Chromium runs of each one's APE against the median of the others; null with fewer than 2 measured runs. */
  chromiumSpreadPercent: number | null;
  /**
   * The same for the emulated browser's runs: a cell whose error is within it is one where the
   * model's own outcome varies from run to run (a race at the server), not a steady bias.
   */
  emulatedSpreadPercent: number | null;
  /** LCP cells only: the element each client's runs painted as their LCP most often. */
  lcpElement?: LcpElementMatch;
}

export interface LcpElementMatch {
  /** `lcpElementKey` of the element, null when no run of the client names one. */
  chromium: string | null;
  emulated: string | null;
  /** Both name one and it is the same; null when either names none. */
  same: boolean | null;
}

/** A cell that cannot be compared, and why: listed, not dropped. */
export interface MissingCell {
  site: string;
  condition: string;
  chromium: ClientTimes;
  emulated: ClientTimes;
  reason: string;
}

/** A client's run-to-run spread over cells: how many have one (2 or more measured runs), and its median and p90 across them. */
export interface Spread {
  cells: number;
  medianPercent: number | null;
  p90Percent: number | null;
}

/** One metric under one protocol. */
export interface AccuracyGroup {
  metric: AccuracyMetric;
  protocol: string;
  /** Cells with values from both clients, by site, then condition. */
  cells: AccuracyCell[];
  missing: MissingCell[];
  overall: {
    cells: number;
    medianApePercent: number | null;
    p90ApePercent: number | null;
    meanApePercent: number | null;
    /** Of the emulated medians against Chromium's across cells; null with fewer than 3 cells or no variation. */
    spearman: number | null;
    /** Chromium's spread over the compared cells that have one (2 or more measured Chromium runs). */
    chromiumSpread: Spread;
    /** The emulated browser's spread over the compared cells that have one. */
    emulatedSpread: Spread;
    /** LCP groups only: over the cells where both clients name their LCP element, how many name the same, and the median APE of each kind. */
    lcpElement?: { cells: number; same: number; medianApePercentSame: number | null; medianApePercentDifferent: number | null };
  };
  /** The same cells, largest APE first. */
  largestErrorsFirst: AccuracyCell[];
}

export interface AccuracySummary {
  /** Metric by metric in ACCURACY_METRICS order, protocols in code-point order within each; only pairs some sample has. */
  groups: AccuracyGroup[];
}

/** |predicted - actual| / actual, in percent; actual must be above 0. */
export function absolutePercentageError(predicted: number, actual: number): number {
  if (!(actual > 0 && Number.isFinite(actual))) throw new RangeError(`absolutePercentageError: the actual value must be a number above 0, not ${actual}`);
  return (Math.abs(predicted - actual) / actual) * 100;
}

export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * The p-th percentile, p from 0 to 100, by linear interpolation between closest ranks: the sorted
 * values x[0] .. x[n-1] sit at ranks 0 .. n-1 and the percentile at rank h = (n - 1) p / 100, between
 * x[floor(h)] and x[floor(h) + 1] in proportion to h's fraction (Hyndman and Fan's type 7, the default
 * of R and NumPy and spreadsheets' PERCENTILE.INC). p 0 is the minimum, 50 the median, 100 the maximum.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) throw new RangeError("percentile: there are no values");
  if (!(p >= 0 && p <= 100)) throw new RangeError(`percentile: p must be from 0 to 100, not ${p}`);
  const x = [...values].sort((a, b) => a - b);
  const h = ((x.length - 1) * p) / 100;
  const lo = Math.floor(h);
  const hi = Math.min(lo + 1, x.length - 1);
  return x[lo]! + (h - lo) * (x[hi]! - x[lo]!);
}

export function mean(values: readonly number[]): number {
  if (values.length === 0) throw new RangeError("mean: there are no values");
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/**
 * Spearman's rank correlation: Pearson's correlation of the ranks, tied values sharing the average of
 * the ranks they span. null with fewer than 3 pairs (too few to mean anything) or when either side
 * does not vary (the correlation is undefined).
 */
export function spearman(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new RangeError(`spearman: ${xs.length} xs but ${ys.length} ys; they must be pairs`);
  if (xs.length < 3) return null;
  return pearson(averageRanks(xs), averageRanks(ys));
}

/** Ranks from 1; a run of equal values gets the mean of the ranks it spans. */
function averageRanks(values: readonly number[]): number[] {
  const order = values.map((_, i) => i).sort((a, b) => values[a]! - values[b]!);
  const ranks = new Array<number>(values.length);
  for (let i = 0; i < order.length; ) {
    let j = i;
    while (j + 1 < order.length && values[order[j + 1]!] === values[order[i]!]) j++;
    for (let k = i; k <= j; k++) ranks[order[k]!] = (i + j) / 2 + 1;
    i = j + 1;
  }
  return ranks;
}

function pearson(a: number[], b: number[]): number | null {
  const ma = mean(a);
  const mb = mean(b);
  let sab = 0;
  let saa = 0;
  let sbb = 0;
  a.forEach((x, i) => {
    sab += (x - ma) * (b[i]! - mb);
    saa += (x - ma) ** 2;
    sbb += (b[i]! - mb) ** 2;
  });
  return saa === 0 || sbb === 0 ? null : sab / Math.sqrt(saa * sbb);
}

export function summariseAccuracy(samples: readonly AccuracySample[]): AccuracySummary {
  const protocols = [...new Set(samples.map((s) => s.protocol))].sort(compare);
  const groups: AccuracyGroup[] = [];
  for (const metric of ACCURACY_METRICS) {
    for (const protocol of protocols) {
      const mine = samples.filter((s) => s.protocol === protocol && s.metrics[metric] !== undefined);
      if (mine.length > 0) groups.push(summariseGroup(metric, protocol, mine));
    }
  }
  return { groups };
}

/**
 * The same summary for any two clients: `predictor` in the emulated browser's place and `reference`
 * in Chromium's, e.g. the simulator against the real emulated replay it stands for. The fields keep
 * their names (`emulated`, `chromium`, `chromiumSpread`): read them as predictor, reference and the
 * reference's own run-to-run spread.
 */
export function compareClients(samples: readonly AccuracySample[], predictor: Client, reference: Client): AccuracySummary {
  const role = (c: Client): Client | undefined => (c === predictor ? "emulated" : c === reference ? "chromium" : undefined);
  return summariseAccuracy(samples.flatMap((s) => (role(s.client) ? [{ ...s, client: role(s.client)! }] : [])));
}

/** The group of a metric and protocol, if the summary has one. */
export function accuracyGroup(summary: AccuracySummary, metric: AccuracyMetric, protocol: string): AccuracyGroup | undefined {
  return summary.groups.find((g) => g.metric === metric && g.protocol === protocol);
}

interface Run {
  value: number | null;
  why: string | null;
  element: string | null | undefined;
}

/** An LCP element as the accuracy summary tells elements apart: what it is, the node as Chromium names it, and the image's URL. */
export function lcpElementKey(e: { type: string; nodeName: string; url: string | null } | null): string | null {
  return e ? [e.type, e.nodeName, e.url].filter((x) => x !== null && x !== "").join(" ") : null;
}

/** The element the runs name most often, ties to the first in code-point order; null when none names one. */
function usualElement(runs: Run[]): string | null {
  const counts = new Map<string, number>();
  for (const r of runs) if (r.element) counts.set(r.element, (counts.get(r.element) ?? 0) + 1);
  const ranked = [...counts].sort((a, b) => b[1] - a[1] || compare(a[0], b[0]));
  return ranked[0]?.[0] ?? null;
}

function lcpElementMatch(runs: Record<Client, Run[]>): LcpElementMatch | undefined {
  // Results made before runs named their element say nothing either way.
  if (![...runs.chromium, ...runs.emulated].some((r) => r.element !== undefined)) return undefined;
  const chromium = usualElement(runs.chromium);
  const emulated = usualElement(runs.emulated);
  return { chromium, emulated, same: chromium !== null && emulated !== null ? chromium === emulated : null };
}

function spreadOver(perCell: (number | null)[]): Spread {
  const xs = perCell.filter((x): x is number => x !== null);
  return { cells: xs.length, medianPercent: xs.length ? median(xs) : null, p90Percent: xs.length ? percentile(xs, 90) : null };
}

function summariseGroup(metric: AccuracyMetric, protocol: string, samples: readonly AccuracySample[]): AccuracyGroup {
  const byCell = new Map<string, { site: string; condition: string; runs: Record<Client, Run[]> }>();
  for (const s of samples) {
    const key = JSON.stringify([s.site, s.condition]);
    const g = byCell.get(key) ?? { site: s.site, condition: s.condition, runs: { chromium: [], emulated: [], simulated: [] } };
    g.runs[s.client].push({ value: s.metrics[metric] ?? null, why: s.missing?.[metric] ?? null, element: s.lcpElement });
    byCell.set(key, g);
  }
  const ordered = [...byCell.values()].sort((a, b) => compare(a.site, b.site) || compare(a.condition, b.condition));
  const cells: AccuracyCell[] = [];
  const missing: MissingCell[] = [];
  for (const { site, condition, runs } of ordered) {
    const chromium = clientTimes(runs.chromium);
    const emulated = clientTimes(runs.emulated);
    const reason = missingReason(metric, runs, chromium, emulated);
    if (reason !== undefined) missing.push({ site, condition, chromium, emulated, reason });
    else {
      const actual = chromium.medianMs!;
      const predicted = emulated.medianMs!;
      const signedErrorMs = predicted - actual;
      const chromiumSpreadPercent = spread(measuredValues(runs.chromium));
      const emulatedSpreadPercent = spread(measuredValues(runs.emulated));
      const apePercent = absolutePercentageError(predicted, actual);
      const cell: AccuracyCell = { site, condition, chromium, emulated, apePercent, signedErrorMs, signedErrorPercent: (signedErrorMs / actual) * 100, chromiumSpreadPercent, emulatedSpreadPercent };
      const match = metric === "lcp" ? lcpElementMatch(runs) : undefined;
      cells.push(match ? { ...cell, lcpElement: match } : cell);
    }
  }
  const apes = cells.map((c) => c.apePercent);
  const any = apes.length > 0;
  return {
    metric,
    protocol,
    cells,
    missing,
    overall: {
      cells: cells.length,
      medianApePercent: any ? median(apes) : null,
      p90ApePercent: any ? percentile(apes, 90) : null,
      meanApePercent: any ? mean(apes) : null,
      spearman: spearman(cells.map((c) => c.emulated.medianMs!), cells.map((c) => c.chromium.medianMs!)),
      chromiumSpread: spreadOver(cells.map((c) => c.chromiumSpreadPercent)),
      emulatedSpread: spreadOver(cells.map((c) => c.emulatedSpreadPercent)),
      ...elementAgreement(cells),
    },
    largestErrorsFirst: [...cells].sort((a, b) => b.apePercent - a.apePercent),
  };
}

function elementAgreement(cells: AccuracyCell[]): { lcpElement?: NonNullable<AccuracyGroup["overall"]["lcpElement"]> } {
  const named = cells.filter((c) => c.lcpElement?.same !== undefined && c.lcpElement.same !== null);
  if (!cells.some((c) => c.lcpElement)) return {};
  const apes = (same: boolean) => named.filter((c) => c.lcpElement!.same === same).map((c) => c.apePercent);
  const [same, different] = [apes(true), apes(false)];
  return { lcpElement: { cells: named.length, same: same.length, medianApePercentSame: same.length ? median(same) : null, medianApePercentDifferent: different.length ? median(different) : null } };
}

/** Leave one out: each run's APE against the median of the others, and the median of those. */
export function spread(values: readonly number[]): number | null {
  if (values.length < 2) return null;
  const apes: number[] = [];
  values.forEach((v, i) => {
    const others = median(values.filter((_, j) => j !== i));
    if (others > 0) apes.push(absolutePercentageError(v, others));
  });
  return apes.length > 0 ? median(apes) : null;
}

function measuredValues(runs: Run[]): number[] {
  return runs.map((r) => r.value).filter((v): v is number => v !== null);
}

function clientTimes(runs: Run[]): ClientTimes {
  const measured = measuredValues(runs);
  return { runs: runs.length, measured: measured.length, medianMs: measured.length > 0 ? median(measured) : null };
}

/** Why a cell cannot be compared (both clients' shortfalls, if both fall short), or undefined. */
function missingReason(metric: AccuracyMetric, runs: Record<Client, Run[]>, chromium: ClientTimes, emulated: ClientTimes): string | undefined {
  const reasons = [shortfall(metric, "chromium", chromium, runs.chromium), shortfall(metric, "emulated", emulated, runs.emulated)].filter((r): r is string => r !== undefined);
  if (reasons.length === 0 && chromium.medianMs === 0) reasons.push(`Chromium's median ${ACCURACY_METRIC_NOUNS[metric]} is 0 ms, so a percentage error is undefined`);
  return reasons.length > 0 ? reasons.join("; ") : undefined;
}

function shortfall(metric: AccuracyMetric, client: Client, t: ClientTimes, runs: Run[]): string | undefined {
  const noun = ACCURACY_METRIC_NOUNS[metric];
  if (t.runs === 0) return `no ${client} run`;
  if (t.measured > 0) return undefined;
  const whys = [...new Set(runs.map((r) => r.why).filter((w): w is string => w !== null))];
  const why = whys.length > 0 ? ` (${whys.join("; ")})` : "";
  return (t.runs === 1 ? `the one ${client} run has no ${noun}` : `none of the ${t.runs} ${client} runs has a ${noun}`) + why;
}

/** Code-point order, the same wherever it runs (localeCompare depends on the locale). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
