/**
 * What the results charts show, computed from an experiment's runs. Only runs that are ok and measured
 * a load time count: a missing or failed measurement is left out and said so, never filled in.
 */
import type { ExperimentData, RunRow } from "../src/server/api.js";
import type { Placed } from "./heatmap.js";

export type Config = Pick<RunRow, "protocol" | "transport" | "serverModel" | "priority" | "scheduler" | "congestion" | "tailLossProbes">;

/**
 * The scheduler comes last, and only when there is one, then a congestion controller other than cubic
 * ("cc=bbr") and tail loss probes off ("tlp=off"), so that keys of configurations without them (in
 * links) stay as they were.
 */
export function configKey(c: Config): string {
  const knobs = [...(c.congestion === undefined ? [] : [`cc=${c.congestion}`]), ...(c.tailLossProbes === false ? ["tlp=off"] : [])];
  return [c.protocol, c.transport, c.serverModel, c.priority, ...(c.scheduler === undefined ? [] : [c.scheduler]), ...knobs].join("/");
}

export function configLabel(key: string): string {
  const [protocol, transport, server, priority, ...rest] = key.split("/");
  const knob = (s: string) => /^(cc|tlp)=[a-z0-9_]+$/.test(s);
  const scheduler = rest.filter((s) => !knob(s));
  const cc = rest.find((s) => s.startsWith("cc="))?.slice(3);
  const knobs = `${cc === undefined ? "" : `, congestion ${cc}`}${rest.includes("tlp=off") ? ", no tail loss probes" : ""}`;
  return `${protocol} over ${transport}${scheduler.length > 0 ? ` (scheduler ${scheduler.join("/")})` : ""}${knobs}, ${server} server, priority ${priority}`;
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

export interface LoadCell extends Placed {
  runs: number;
  measured: number;
  median: number | null;
}

/** Median load time over all sites and runs of one configuration, per grid point of one family of networks. */
export function heatmap(x: ExperimentData, config: string, familyKey: string): LoadCell[] {
  const byNetwork = new Map<string, RunRow[]>();
  for (const r of x.runs) if (configKey(r) === config) byNetwork.set(r.network, [...(byNetwork.get(r.network) ?? []), r]);
  // Networks of a family at one grid point share its cell, as the analysis pools them.
  const cells = new Map<string, Placed & { runs: RunRow[] }>();
  for (const p of x.places.filter((p) => p.familyKey === familyKey)) {
    const key = JSON.stringify([p.row, p.point.rttMs]);
    const cell = cells.get(key) ?? { point: p.point, row: p.row, runs: [] };
    cells.set(key, { ...cell, runs: [...cell.runs, ...(byNetwork.get(p.network) ?? [])] });
  }
  return [...cells.values()].map(({ point, row, runs }) => {
    const loads = runs.map(measuredLoad).filter((v) => v !== null);
    return { point, row, runs: runs.length, measured: loads.length, median: loads.length ? median(loads) : null };
  });
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
  const unpaired = new Set([...ma.keys(), ...mb.keys()]).size - pairs.length;
  return { points: cdfPoints(pairs), unpaired };
}

/** In rising order, each with the fraction of the values at or below it. */
export function cdfPoints(values: Omit<CdfPoint, "y">[]): CdfPoint[] {
  const sorted = [...values].sort((p, q) => p.value - q.value);
  return sorted.map((p, i) => ({ ...p, y: (i + 1) / sorted.length }));
}
