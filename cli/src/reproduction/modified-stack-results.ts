/**
 * The statistics of seed 001 §6.5 from the ladder's runs: per mismatch, grid point and step, the
 * difference PLT_TCP - PLT_step per (site, run) with its mean, standard deviation and percentage
 * improvement (Table 6.1's x̄, σ, % Imp.), the share of sites whose mean PLT is equal to or better
 * than single-path TCP's within 20 ms (Fig 6.22), the CDF of the per-site mean differences (Fig
 * 6.24), one-way ANOVA between the modified stack and the baseline (Table 6.1's p-value), and each
 * site's run-to-run standard deviation (Fig 6.5's measure, what the 20 ms margin is set against).
 */
import { gridPointOf, mean, measuredValue, oneWayAnova, sampleStandardDeviation, type GridPoint, type RunResult } from "@pagepath/results";

/** §6.3.2: "equal or better" allows 20 ms. */
export const EQUAL_MARGIN_MS = 20;

export type Mismatch = "rtt" | "bandwidth";

export interface StepCell {
  step: string;
  /** (site, run) pairs with both the step and single-path TCP ok. */
  pairs: number;
  /** PLT_TCP - PLT_step per pair, ms: positive is the step faster. */
  differences: number[];
  meanMs: number | null;
  sdMs: number | null;
  improvementPercent: number | null;
  /** Per site, the step's mean PLT minus single-path TCP's mean, ms (Fig 6.24's x axis). */
  siteMeanDifferences: number[];
  /** Share of sites whose mean PLT is at most TCP's + 20 ms. */
  equalOrBetterPercent: number | null;
  meanTcpMs: number | null;
  /** Per site with two runs or more, the sample standard deviation of the step's PLT over its runs, ms. */
  siteRunSdMs: number[];
  /** The same of single-path TCP's PLT, over the runs paired with this step's. */
  tcpSiteRunSdMs: number[];
}

export interface RegimeResult {
  mismatch: Mismatch;
  point: GridPoint;
  steps: StepCell[];
}

/** Which mismatch a two-path network is: its second path slower by RTT or by bandwidth. */
export function mismatchOf(r: RunResult): Mismatch | null {
  const [a, b] = r.configuration.network.paths;
  if (!a || !b) return null;
  if (b.rttMs > a.rttMs * 1.0001) return "rtt";
  if (a.downMbps !== null && b.downMbps !== null && b.downMbps < a.downMbps * 0.9999) return "bandwidth";
  return null;
}

const pairKey = (r: RunResult) => `${r.site.name}|${r.configuration.network.name}|${r.run}`;

/** Pairs every step's ok runs with single-path TCP's of the same site, network and replication. */
export function regimeResults(tcp: readonly RunResult[], steps: { step: string; runs: readonly RunResult[] }[]): RegimeResult[] {
  const tcpLoad = new Map<string, number>();
  for (const r of tcp) {
    const v = measuredValue(r, "load");
    if (v !== null) tcpLoad.set(pairKey(r), v);
  }
  const regimes = new Map<string, RegimeResult>();
  const cells = new Map<string, Map<string, { site: string; tcp: number; step: number }[]>>();
  for (const { step, runs } of steps) {
    for (const r of runs) {
      const mismatch = mismatchOf(r);
      const v = measuredValue(r, "load");
      const t = tcpLoad.get(pairKey(r));
      if (mismatch === null || v === null || t === undefined) continue;
      const point = gridPointOf(r.configuration.network);
      const id = `${mismatch}|${point.bandwidthMbps}|${point.rttMs}`;
      if (!regimes.has(id)) regimes.set(id, { mismatch, point, steps: [] });
      const bySteps = cells.get(id) ?? new Map();
      cells.set(id, bySteps);
      bySteps.set(step, [...(bySteps.get(step) ?? []), { site: r.site.name, tcp: t, step: v }]);
    }
  }
  for (const [id, regime] of regimes) {
    regime.steps = steps.map(({ step }) => stepCell(step, cells.get(id)?.get(step) ?? []));
  }
  return [...regimes.values()].sort((a, b) => a.mismatch.localeCompare(b.mismatch) || (a.point.bandwidthMbps ?? 0) - (b.point.bandwidthMbps ?? 0) || a.point.rttMs - b.point.rttMs);
}

function stepCell(step: string, pairs: { site: string; tcp: number; step: number }[]): StepCell {
  const differences = pairs.map((p) => p.tcp - p.step);
  const sumTcp = pairs.reduce((a, p) => a + p.tcp, 0);
  const bySite = new Map<string, { tcp: number[]; step: number[] }>();
  for (const p of pairs) {
    const s = bySite.get(p.site) ?? { tcp: [], step: [] };
    s.tcp.push(p.tcp);
    s.step.push(p.step);
    bySite.set(p.site, s);
  }
  const siteMeanDifferences = [...bySite.values()].map((s) => mean(s.step) - mean(s.tcp));
  const spread = (pick: (s: { tcp: number[]; step: number[] }) => number[]) => [...bySite.values()].flatMap((s) => sampleStandardDeviation(pick(s)) ?? []);
  return {
    step,
    pairs: pairs.length,
    differences,
    meanMs: differences.length ? mean(differences) : null,
    sdMs: sampleStandardDeviation(differences),
    improvementPercent: sumTcp > 0 ? (100 * differences.reduce((a, b) => a + b, 0)) / sumTcp : null,
    siteMeanDifferences,
    equalOrBetterPercent: siteMeanDifferences.length ? (100 * siteMeanDifferences.filter((d) => d <= EQUAL_MARGIN_MS).length) / siteMeanDifferences.length : null,
    meanTcpMs: pairs.length ? mean(pairs.map((p) => p.tcp)) : null,
    siteRunSdMs: spread((s) => s.step),
    tcpSiteRunSdMs: spread((s) => s.tcp),
  };
}

/** Table 6.1's p-value: one-way ANOVA between two steps' differences from TCP; null if it cannot be computed. */
export function anovaBetween(regime: RegimeResult, a: string, b: string): number | null {
  const x = regime.steps.find((s) => s.step === a)?.differences ?? [];
  const y = regime.steps.find((s) => s.step === b)?.differences ?? [];
  return oneWayAnova([x, y])?.pValue ?? null;
}

export function findRegime(regimes: readonly RegimeResult[], mismatch: Mismatch, rateMbit: number, rttMs: number): RegimeResult | undefined {
  return regimes.find((r) => r.mismatch === mismatch && r.point.bandwidthMbps === rateMbit && r.point.rttMs === rttMs);
}
