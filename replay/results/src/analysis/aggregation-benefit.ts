/**
 * The experimental aggregation benefit (seed 003 Eq. 5.1): how a multipath run's goodput Gm compares
 * with single-path runs over each of its paths, Gi, the best of them Gmax:
 *   EAB = (Gm - Gmax) / (ΣGi - Gmax) when Gm >= Gmax, else (Gm - Gmax) / Gmax.
 * 0: as good as the best path alone; 1: the sum of the paths; -1: nothing transferred.
 *
 * A single-path transport over a network of several paths uses path 0 only, so single-path runs over
 * path i are those on a network of the same paths with path i first (a "first path slow" family
 * beside a "first path fast" one). Where the plan has no such network, or the runs are missing, the
 * benefit is reported as not applicable, with the reason; it is never estimated.
 */
import type { ExperimentPlan } from "../experiment.js";
import type { NetworkConfig, PathConfig, RunResult, Transport } from "../run-result.js";
import { runSchedulerKey } from "../plan-schedulers.js";
import { runCongestionKey, runTailLossProbeKey, transportKnobsLabel } from "../plan-transport-knobs.js";
import { median } from "../accuracy.js";
import type { AnalysisConfiguration } from "./configurations.js";
import { gridPointOf, type GridPoint } from "./network-family.js";

const SINGLE_PATH: Partial<Record<Transport, Transport>> = { mptcp: "tcp", mpquic: "quic" };

export interface SiteAggregationBenefit {
  site: string;
  /** Mean goodput of the multipath runs, Mbit/s. */
  multipathGoodputMbps: number;
  /** Mean goodput of the single-path runs over each path, path 1 first, Mbit/s. */
  singlePathGoodputMbps: number[];
  eab: number;
}

export interface AggregationBenefit {
  /** The multipath configuration's label. */
  multipath: string;
  /** The single-path stack compared with, e.g. "h2/tcp · out-of-order · none". */
  singlePath: string;
  network: string;
  point: GridPoint;
  /** Per path of `network` (path 1 first): the networks with it first, whose single-path runs measure it. */
  singlePathNetworks: string[][];
  /** Where the downloaded bytes come from: the paths' byte counts, or the response bodies the client counted. */
  bytesFrom: "paths" | "requests";
  sites: SiteAggregationBenefit[];
  /** Sites left out, and why. */
  sitesLeftOut: { site: string; reason: string }[];
  meanEab: number;
  medianEab: number;
}

export interface AggregationBenefitReport {
  results: AggregationBenefit[];
  /** Where a multipath configuration's benefit cannot be computed; `network` null when none of its networks can. */
  notApplicable: { multipath: string; network: string | null; reason: string }[];
  /** Why nothing applies at all (no multipath configuration), else null. */
  note: string | null;
}

export function aggregationBenefits(plan: ExperimentPlan, configs: AnalysisConfiguration[], runs: readonly RunResult[]): AggregationBenefitReport {
  const multipath = configs.filter((c) => SINGLE_PATH[c.transport] !== undefined);
  const report: AggregationBenefitReport = { results: [], notApplicable: [], note: null };
  if (multipath.length === 0) return { ...report, note: "no configuration uses a multipath transport (mptcp or mpquic), so the experimental aggregation benefit does not apply" };
  const networks = new Map(plan.networks.map((n) => [n.name, n]));
  for (const m of multipath) {
    const single = SINGLE_PATH[m.transport]!;
    const singlePath = `${m.protocol}/${single}${transportKnobsLabel(m)} · ${m.serverModel} · ${m.priority}`;
    const skip = (network: string | null, reason: string) => report.notApplicable.push({ multipath: m.label, network, reason });
    if (!plan.transports.includes(single)) {
      skip(null, `the plan has no ${single} runs to compare with`);
      continue;
    }
    if (m.networks.every((n) => networks.get(n)!.paths.length < 2)) {
      skip(null, "its networks have one path: there is nothing to aggregate");
      continue;
    }
    // Single-path runs compared with a multipath configuration ran its congestion controller and tail loss probes too.
    const stack = (r: RunResult, transport: Transport) =>
      r.configuration.protocol === m.protocol && r.configuration.transport === transport && r.configuration.serverModel === m.serverModel && r.configuration.priority === m.priority &&
      runCongestionKey(r.configuration) === m.congestion && runTailLossProbeKey(r.configuration) === m.tailLossProbes;
    // Each scheduler of the multipath transport is a configuration of its own, set against the same single-path runs.
    const multipathRuns = runs.filter((r) => stack(r, m.transport) && runSchedulerKey(r.configuration) === m.scheduler);
    const singleRuns = runs.filter((r) => stack(r, single));
    for (const name of m.networks) {
      const network = networks.get(name)!;
      const perPath = network.paths.map((p) => plan.networks.filter((n) => samePaths(n, network) && pathId(n.paths[0]!) === pathId(p)).map((n) => n.name));
      const missing = perPath.findIndex((names) => names.length === 0);
      if (missing >= 0) {
        skip(name, `no network of the plan has path ${missing + 1} (${describePath(network.paths[missing]!)}) first, so ${single} never ran over it alone`);
        continue;
      }
      const result = benefitOn(plan, network, perPath, multipathRuns, singleRuns);
      if (typeof result === "string") skip(name, result);
      else report.results.push({ multipath: m.label, singlePath, network: name, point: gridPointOf(network), singlePathNetworks: perPath, ...result });
    }
  }
  return report;
}

/** The benefit per site on one network, or why there is none. */
function benefitOn(plan: ExperimentPlan, network: NetworkConfig, perPath: string[][], multipathRuns: RunResult[], singleRuns: RunResult[]) {
  const usable = (r: RunResult) => r.status === "ok" && r.metrics.loadMs !== null && r.metrics.loadMs > 0;
  const mRuns = multipathRuns.filter((r) => usable(r) && r.configuration.network.name === network.name);
  const sRuns = perPath.map((names) => singleRuns.filter((r) => usable(r) && names.includes(r.configuration.network.name)));
  const all = [mRuns, ...sRuns].flat();
  if (mRuns.length === 0 || sRuns.some((r) => r.length === 0)) return "no measured runs on one side yet (multipath here, or single-path over one of its paths)";
  const bytesFrom = all.every((r) => pathBytes(r) !== null) ? "paths" : all.every((r) => requestBytes(r) !== null) ? "requests" : null;
  if (bytesFrom === null) return "the downloaded bytes are not measured on every run (neither per path nor per response)";
  const bytes = bytesFrom === "paths" ? pathBytes : requestBytes;
  const multipathGoodputs = meanGoodputs(mRuns, bytes);
  const singlePathGoodputs = sRuns.map((rs) => meanGoodputs(rs, bytes));
  const sites: SiteAggregationBenefit[] = [];
  const sitesLeftOut: { site: string; reason: string }[] = [];
  for (const { name: site } of plan.sites) {
    const gm = multipathGoodputs.get(site);
    const gi = singlePathGoodputs.map((g) => g.get(site));
    if (gm === undefined || gi.some((g) => g === undefined)) {
      sitesLeftOut.push({ site, reason: "no measured run of one of the configurations" });
      continue;
    }
    const eab = experimentalAggregationBenefit(gm, gi as number[]);
    if (eab === null) sitesLeftOut.push({ site, reason: "every path but the best carried nothing alone, so the benefit is undefined" });
    else sites.push({ site, multipathGoodputMbps: gm, singlePathGoodputMbps: gi as number[], eab });
  }
  if (sites.length === 0) return "no site has measured runs of both the multipath and every single-path configuration";
  const values = sites.map((s) => s.eab);
  return { bytesFrom, sites, sitesLeftOut, meanEab: values.reduce((a, b) => a + b, 0) / values.length, medianEab: median(values) } as const;
}

/** Eq. 5.1; null where the aggregation denominator is 0 (the other paths' goodput sums to nothing). */
export function experimentalAggregationBenefit(multipathGoodput: number, singlePathGoodputs: readonly number[]): number | null {
  const best = Math.max(...singlePathGoodputs);
  if (multipathGoodput < best) return (multipathGoodput - best) / best;
  const rest = singlePathGoodputs.reduce((a, b) => a + b, 0) - best;
  return rest > 0 ? (multipathGoodput - best) / rest : null;
}

/** Per site, the mean over its runs of bytes / load time, in Mbit/s. */
function meanGoodputs(runs: RunResult[], bytes: (r: RunResult) => number | null): Map<string, number> {
  const sums = new Map<string, { sum: number; n: number }>();
  for (const r of runs) {
    const s = sums.get(r.site.name) ?? { sum: 0, n: 0 };
    s.sum += (bytes(r)! * 8) / (r.metrics.loadMs! * 1000);
    s.n += 1;
    sums.set(r.site.name, s);
  }
  return new Map([...sums].map(([site, s]) => [site, s.sum / s.n]));
}

function pathBytes(r: RunResult): number | null {
  return r.paths.every((p) => p.bytesDown !== null) ? r.paths.reduce((s, p) => s + p.bytesDown!, 0) : null;
}

function requestBytes(r: RunResult): number | null {
  const requests = r.requests ?? [];
  return requests.length > 0 && requests.every((q) => q.bodyBytes !== null) ? requests.reduce((s, q) => s + q.bodyBytes!, 0) : null;
}

function pathId(p: PathConfig): string {
  return JSON.stringify([p.upMbps, p.downMbps, p.rttMs, p.loss, p.queue?.discipline ?? null, p.queue?.packets ?? null, p.trace?.uplink ?? null, p.trace?.downlink ?? null]);
}

/** The same paths, in any order. */
function samePaths(a: NetworkConfig, b: NetworkConfig): boolean {
  const ids = (n: NetworkConfig) => n.paths.map(pathId).sort().join("\n");
  return a.paths.length === b.paths.length && ids(a) === ids(b);
}

function describePath(p: PathConfig): string {
  return `${p.downMbps === null ? "trace" : `${p.downMbps} Mbit/s`}, ${p.rttMs} ms`;
}
