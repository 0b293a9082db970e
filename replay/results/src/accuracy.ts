/**
 * How close the emulated browser's load times come to Chromium's. A cell is a site under one condition
 * (network, protocol, server model, ... as the caller names it); within a cell each client's runs are
 * summed up by their median, and the emulated median is compared with Chromium's: its absolute
 * percentage error (APE) and signed error. Across cells: the median, 90th percentile and mean APE, and
 * Spearman's rank correlation, which says whether the emulator orders cells as Chromium does even
 * where its absolute times are off. Pure functions, no I/O.
 */
import type { Client } from "./run-result.js";

export interface LoadSample {
  site: string;
  condition: string;
  client: Client;
  /** null: the run has no load time (it failed or stalled). */
  loadMs: number | null;
}

export interface ClientLoads {
  /** Samples of the client in the cell. */
  runs: number;
  /** Those with a load time: the median is theirs. */
  measured: number;
  medianMs: number | null;
}

export interface AccuracyCell {
  site: string;
  condition: string;
  chromium: ClientLoads;
  emulated: ClientLoads;
  /** |emulated - chromium| / chromium x 100, of the medians. */
  apePercent: number;
  /** emulated - chromium: positive when the emulator is slower. */
  signedErrorMs: number;
  signedErrorPercent: number;
}

/** A cell that cannot be compared, and why: listed, not dropped. */
export interface MissingCell {
  site: string;
  condition: string;
  chromium: ClientLoads;
  emulated: ClientLoads;
  reason: string;
}

export interface AccuracySummary {
  /** Cells with load times from both clients, by site, then condition. */
  cells: AccuracyCell[];
  missing: MissingCell[];
  overall: {
    cells: number;
    medianApePercent: number | null;
    p90ApePercent: number | null;
    meanApePercent: number | null;
    /** Of the emulated medians against Chromium's across cells; null with fewer than 3 cells or no variation. */
    spearman: number | null;
  };
  /** The same cells, largest APE first. */
  largestErrorsFirst: AccuracyCell[];
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

export function summariseAccuracy(samples: readonly LoadSample[]): AccuracySummary {
  const groups = new Map<string, { site: string; condition: string; loads: Record<Client, (number | null)[]> }>();
  for (const s of samples) {
    const key = JSON.stringify([s.site, s.condition]);
    const g = groups.get(key) ?? { site: s.site, condition: s.condition, loads: { chromium: [], emulated: [] } };
    g.loads[s.client].push(s.loadMs);
    groups.set(key, g);
  }
  const ordered = [...groups.values()].sort((a, b) => compare(a.site, b.site) || compare(a.condition, b.condition));
  const cells: AccuracyCell[] = [];
  const missing: MissingCell[] = [];
  for (const { site, condition, loads } of ordered) {
    const chromium = clientLoads(loads.chromium);
    const emulated = clientLoads(loads.emulated);
    const reason = missingReason(chromium, emulated);
    if (reason !== undefined) missing.push({ site, condition, chromium, emulated, reason });
    else {
      const actual = chromium.medianMs!;
      const predicted = emulated.medianMs!;
      const signedErrorMs = predicted - actual;
      cells.push({ site, condition, chromium, emulated, apePercent: absolutePercentageError(predicted, actual), signedErrorMs, signedErrorPercent: (signedErrorMs / actual) * 100 });
    }
  }
  const apes = cells.map((c) => c.apePercent);
  const any = apes.length > 0;
  return {
    cells,
    missing,
    overall: {
      cells: cells.length,
      medianApePercent: any ? median(apes) : null,
      p90ApePercent: any ? percentile(apes, 90) : null,
      meanApePercent: any ? mean(apes) : null,
      spearman: spearman(cells.map((c) => c.emulated.medianMs!), cells.map((c) => c.chromium.medianMs!)),
    },
    largestErrorsFirst: [...cells].sort((a, b) => b.apePercent - a.apePercent),
  };
}

function clientLoads(loads: (number | null)[]): ClientLoads {
  const measured = loads.filter((l): l is number => l !== null);
  return { runs: loads.length, measured: measured.length, medianMs: measured.length > 0 ? median(measured) : null };
}

/** Why a cell cannot be compared (both clients' shortfalls, if both fall short), or undefined. */
function missingReason(chromium: ClientLoads, emulated: ClientLoads): string | undefined {
  const reasons = [shortfall("chromium", chromium), shortfall("emulated", emulated)].filter((r): r is string => r !== undefined);
  if (reasons.length === 0 && chromium.medianMs === 0) reasons.push("Chromium's median load time is 0 ms, so a percentage error is undefined");
  return reasons.length > 0 ? reasons.join("; ") : undefined;
}

function shortfall(client: Client, l: ClientLoads): string | undefined {
  if (l.runs === 0) return `no ${client} run`;
  if (l.measured === 0) return l.runs === 1 ? `the one ${client} run has no load time` : `none of the ${l.runs} ${client} runs has a load time`;
  return undefined;
}

/** Code-point order, the same wherever it runs (localeCompare depends on the locale). */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
