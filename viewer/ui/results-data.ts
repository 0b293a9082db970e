/**
 * What the results charts show, computed from an experiment's runs. Only runs that are ok and measured
 * a load time count: a missing or failed measurement is left out and said so, never filled in.
 */
import type { NetworkConfig, PathConfig } from "@pagepath/results";
import type { ExperimentData, RunRow } from "../src/server/api.js";

export type Config = Pick<RunRow, "protocol" | "transport" | "serverModel" | "priority">;

export function configKey(c: Config): string {
  return `${c.protocol}/${c.transport}/${c.serverModel}/${c.priority}`;
}

export function configLabel(key: string): string {
  const [protocol, transport, server, priority] = key.split("/");
  return `${protocol} over ${transport}, ${server} server, priority ${priority}`;
}

/** The plan's configurations, in its order. */
export function planConfigs(x: ExperimentData): string[] {
  const p = x.plan;
  return x.stacks.flatMap((stack) => p.serverModels.flatMap((serverModel) => p.priorities.map((priority) => configKey({ ...stack, serverModel, priority }))));
}

/** Whole milliseconds as they are, others to 0.1 ms: medians of two runs end in .5. */
export function msText(v: number): string {
  return Number.isInteger(v) ? String(v) : v.toFixed(1);
}

export function measuredLoad(r: RunRow): number | null {
  return r.status === "ok" ? r.loadMs : null;
}

export function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Networks that differ only in the first path's bandwidth and RTT share a heatmap. Further paths are
 * described relative to the first, so "second path at 5x the RTT" is one family across the grid, as in
 * the thesis's multipath heatmaps.
 */
export function familyOf(n: NetworkConfig): string {
  const [first, ...rest] = n.paths;
  // A network brought up outside a plan may not know its loss, queue or (trace links) rate.
  const queue = (p: PathConfig) => p.queue?.discipline ?? "unknown queue";
  const own = `${n.paths.length} path${n.paths.length > 1 ? "s" : ""}, loss ${first!.loss ?? "unknown"}, ${queue(first!)}`;
  const others = rest.map((p, i) => {
    const ratio = (a: number | null, b: number | null, unit: string) => (a === null || b === null ? "unknown" : b > 0 ? `${+(a / b).toFixed(3)}x` : `${a} ${unit}`);
    return `path ${i + 2}: ${ratio(p.downMbps, first!.downMbps, "Mbit/s")} bandwidth, ${ratio(p.rttMs, first!.rttMs, "ms")} RTT, loss ${p.loss ?? "unknown"}, ${queue(p)}`;
  });
  return [own, ...others].join("; ");
}

export interface HeatCell {
  bandwidth: number;
  rtt: number;
  /** The plan has a network here. */
  planned: boolean;
  runs: number;
  measured: number;
  median: number | null;
}

export interface Heatmap {
  bandwidths: number[];
  rtts: number[];
  cells: HeatCell[];
}

/** Median load time over all sites and runs of one configuration, per first-path bandwidth and RTT. */
export function heatmap(x: ExperimentData, config: string, family: string): Heatmap {
  const nets = x.plan.networks.filter((n) => familyOf(n) === family);
  const axis = (f: (n: NetworkConfig) => number) => [...new Set(nets.map(f))].sort((a, b) => a - b);
  const bandwidths = axis((n) => n.paths[0]!.downMbps ?? 0);
  const rtts = axis((n) => n.paths[0]!.rttMs);
  const byNetwork = new Map<string, RunRow[]>();
  for (const r of x.runs) if (configKey(r) === config) byNetwork.set(r.network, [...(byNetwork.get(r.network) ?? []), r]);
  const cells = bandwidths.flatMap((bandwidth) =>
    rtts.map((rtt): HeatCell => {
      const here = nets.filter((n) => (n.paths[0]!.downMbps ?? 0) === bandwidth && n.paths[0]!.rttMs === rtt);
      const runs = here.flatMap((n) => byNetwork.get(n.name) ?? []);
      const loads = runs.map(measuredLoad).filter((v) => v !== null);
      return { bandwidth, rtt, planned: here.length > 0, runs: runs.length, measured: loads.length, median: loads.length ? median(loads) : null };
    }),
  );
  return { bandwidths, rtts, cells };
}

export interface CdfPoint {
  site: string;
  network: string;
  value: number;
  /** Fraction of pairs at or below value. */
  y: number;
}

/**
 * One point per site and network where both configurations have measured runs: mean load of a minus
 * mean load of b (or their ratio). Runs of a pair share seeds (baseSeed + run), so the comparison is
 * between equally lucky runs. Pairs missing either side are counted, not drawn.
 */
export function cdf(x: ExperimentData, a: string, b: string, net: string, scale: "diff" | "ratio"): { points: CdfPoint[]; unpaired: number } {
  const means = (config: string) => {
    const sums = new Map<string, { site: string; network: string; sum: number; n: number }>();
    for (const r of x.runs) {
      const load = measuredLoad(r);
      if (load === null || configKey(r) !== config || (net !== "*" && r.network !== net)) continue;
      const key = JSON.stringify([r.site, r.network]);
      const s = sums.get(key) ?? { site: r.site, network: r.network, sum: 0, n: 0 };
      sums.set(key, { ...s, sum: s.sum + load, n: s.n + 1 });
    }
    return sums;
  };
  const ma = means(a);
  const mb = means(b);
  const pairs = [...ma].flatMap(([key, s]) => {
    const o = mb.get(key);
    if (!o) return [];
    const va = s.sum / s.n;
    const vb = o.sum / o.n;
    return [{ site: s.site, network: s.network, value: scale === "diff" ? va - vb : va / vb }];
  });
  pairs.sort((p, q) => p.value - q.value);
  const unpaired = new Set([...ma.keys(), ...mb.keys()]).size - pairs.length;
  return { points: pairs.map((p, i) => ({ ...p, y: (i + 1) / pairs.length })), unpaired };
}
