/**
 * A candidate configuration against a baseline, paired by site and grid point: at each point, each
 * site's mean over its runs under either configuration, then the thesis's measures over the sites
 * measured under both: the percentage reduction Σ(base - cand) / Σ base (Figs 4.15a, 6.4), the mean
 * difference, the share of sites equal or better within a margin (Figs 4.16, 6.6), and whether the
 * difference is significant (Wilcoxon over sites, one-way ANOVA over runs as Table 6.1).
 */
import type { ExperimentPlan } from "../experiment.js";
import type { RunResult } from "../run-result.js";
import { measuredValue, type MetricName } from "./metric.js";
import { compareGridPoints, gridPointId, gridPointOf, type GridPoint } from "./network-family.js";
import { SELECTOR_KEYS, type ConfigurationPair } from "./selectors.js";
import { oneWayAnova, wilcoxonSignedRank, type AnovaResult, type WilcoxonResult } from "./significance.js";

export interface SiteDifference {
  site: string;
  baselineMs: number;
  candidateMs: number;
  /** baseline - candidate: positive when the candidate is faster. */
  differenceMs: number;
}

/** The measures over a set of paired sites; null when there is no pair. */
export interface PairedMeasures {
  pairedSites: number;
  /** Means of the per-site means. */
  baselineMeanMs: number | null;
  candidateMeanMs: number | null;
  /** 100 Σ(base - cand) / Σ base over the per-site means. */
  reductionPercent: number | null;
  /** Mean of baseline - candidate over the sites. */
  meanDifferenceMs: number | null;
  /** Sites whose candidate mean is at most the baseline mean plus the margin, in percent. */
  equalOrBetterPercent: number | null;
}

export interface PointComparison extends PairedMeasures {
  point: GridPoint;
  baselineNetworks: string[];
  candidateNetworks: string[];
  /** Sites measured under only one of the two configurations here: left out, and named. */
  unpairedSites: string[];
  /** In the plan's site order. */
  differences: SiteDifference[];
  /** Over the sites' differences. */
  wilcoxon: WilcoxonResult | null;
  /** Over the measured runs of the paired sites, baseline group against candidate group. */
  anova: AnovaResult | null;
}

export interface Comparison {
  /** Names its files: "mptcp-vs-tcp-2-paths-rttx5". */
  id: string;
  baseline: string;
  candidate: string;
  points: PointComparison[];
  /** Over every (site, grid point) pair of the points. */
  overall: PairedMeasures;
}

export function compareConfigurations(plan: ExperimentPlan, pair: ConfigurationPair, runsOf: Map<string, RunResult[]>, metric: MetricName, marginMs: number): Omit<Comparison, "id"> {
  const pointOf = new Map(plan.networks.map((n) => [n.name, gridPointOf(n)]));
  const points = new Map<string, GridPoint>();
  for (const name of [...pair.baseline.networks, ...pair.candidate.networks]) points.set(gridPointId(pointOf.get(name)!), pointOf.get(name)!);
  const at = (networks: string[], p: GridPoint) => networks.filter((n) => gridPointId(pointOf.get(n)!) === gridPointId(p));
  const siteOrder = plan.sites.map((s) => s.name);
  const comparisons = [...points.values()].sort(compareGridPoints).map((point): PointComparison => {
    const baselineNetworks = at(pair.baseline.networks, point);
    const candidateNetworks = at(pair.candidate.networks, point);
    const base = valuesBySite(runsOf.get(pair.baseline.label) ?? [], baselineNetworks, metric);
    const cand = valuesBySite(runsOf.get(pair.candidate.label) ?? [], candidateNetworks, metric);
    const paired = siteOrder.filter((s) => base.has(s) && cand.has(s));
    const differences = paired.map((site) => {
      const baselineMs = average(base.get(site)!);
      const candidateMs = average(cand.get(site)!);
      return { site, baselineMs, candidateMs, differenceMs: baselineMs - candidateMs };
    });
    return {
      point,
      baselineNetworks,
      candidateNetworks,
      unpairedSites: siteOrder.filter((s) => base.has(s) !== cand.has(s)),
      ...pairedMeasures(differences, marginMs),
      differences,
      wilcoxon: wilcoxonSignedRank(differences.map((d) => d.differenceMs)),
      anova: oneWayAnova([paired.flatMap((s) => base.get(s)!), paired.flatMap((s) => cand.get(s)!)]),
    };
  });
  return { baseline: pair.baseline.label, candidate: pair.candidate.label, points: comparisons, overall: pairedMeasures(comparisons.flatMap((p) => p.differences), marginMs) };
}

export function pairedMeasures(differences: readonly SiteDifference[], marginMs: number): PairedMeasures {
  const n = differences.length;
  if (n === 0) return { pairedSites: 0, baselineMeanMs: null, candidateMeanMs: null, reductionPercent: null, meanDifferenceMs: null, equalOrBetterPercent: null };
  const base = differences.reduce((s, d) => s + d.baselineMs, 0);
  const cand = differences.reduce((s, d) => s + d.candidateMs, 0);
  return {
    pairedSites: n,
    baselineMeanMs: base / n,
    candidateMeanMs: cand / n,
    reductionPercent: base > 0 ? (100 * (base - cand)) / base : null,
    meanDifferenceMs: (base - cand) / n,
    equalOrBetterPercent: (100 * differences.filter((d) => d.candidateMs <= d.baselineMs + marginMs).length) / n,
  };
}

/** Each site's measured values on the given networks; sites without one are absent. */
function valuesBySite(runs: RunResult[], networks: string[], metric: MetricName): Map<string, number[]> {
  const bySite = new Map<string, number[]>();
  for (const r of runs) {
    const v = measuredValue(r, metric);
    if (v === null || !networks.includes(r.configuration.network.name)) continue;
    if (!bySite.has(r.site.name)) bySite.set(r.site.name, []);
    bySite.get(r.site.name)!.push(v);
  }
  return bySite;
}

function average(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** A file-name-safe name saying what differs between the two, and the family they share. */
export function comparisonName(pair: ConfigurationPair): string {
  const differing = SELECTOR_KEYS.filter((k) => pair.baseline[k] !== pair.candidate[k]);
  const side = (c: ConfigurationPair["baseline"]) => differing.map((k) => c[k]).join(" ");
  const shared = differing.includes("family") ? "" : ` ${pair.baseline.family}`;
  return slug(`${side(pair.candidate)} vs ${side(pair.baseline)}${shared}`);
}

function slug(s: string): string {
  return s.toLowerCase().replace(/×/g, "x").replace(/%/g, "pct").replace(/[^a-z0-9.]+/g, "-").replace(/^-+|-+$/g, "");
}
