/**
 * Networks split into families and grid points, as in the thesis's heatmaps: a grid point is the
 * first path's bandwidth and RTT; everything else (loss, queue discipline, further paths relative to
 * the first) makes the family, so "second path at 5x the RTT" is one family across the whole grid.
 * Pure and browser-safe (type imports only), so the viewer can share it.
 */
import type { NetworkConfig, PathConfig } from "../run-result.js";

/**
 * A family's full description, the key networks are grouped by. Further paths are described relative
 * to the first. A network brought up outside a plan may not know its loss, queue or (trace links) rate.
 */
export function familyKey(n: NetworkConfig): string {
  const [first, ...rest] = n.paths;
  const queue = (p: PathConfig) => p.queue?.discipline ?? "unknown queue";
  const own = `${n.paths.length} path${n.paths.length > 1 ? "s" : ""}, loss ${first!.loss ?? "unknown"}, ${queue(first!)}`;
  const others = rest.map((p, i) => {
    const ratio = (a: number | null, b: number | null, unit: string) => (a === null || b === null ? "unknown" : b > 0 ? `${+(a / b).toFixed(3)}x` : `${a} ${unit}`);
    return `path ${i + 2}: ${ratio(p.downMbps, first!.downMbps, "Mbit/s")} bandwidth, ${ratio(p.rttMs, first!.rttMs, "ms")} RTT, loss ${p.loss ?? "unknown"}, ${queue(p)}`;
  });
  return [own, ...others].join("; ");
}

/**
 * The same family in a few words, for labels and selectors: "1 path", "2 paths rtt×5", "2 paths
 * bw×0.2 p2 loss 1%". Only what differs from no loss, drop-tail and an equal path is said, so two
 * families never share a label. Never holds a comma or "=" (selectors split on them).
 */
export function familyLabel(n: NetworkConfig): string {
  const [first, ...rest] = n.paths;
  const parts = [`${n.paths.length} path${n.paths.length > 1 ? "s" : ""}`, ...pathQuirks(first!, "")];
  rest.forEach((p, i) => {
    const name = `p${i + 2}`;
    // With one further path the ratios can only be about it; with more they name their path.
    const ratioPrefix = rest.length > 1 ? `${name} ` : "";
    const bw = relative(p.downMbps, first!.downMbps, "Mbit/s");
    const rtt = relative(p.rttMs, first!.rttMs, "ms");
    if (bw !== null) parts.push(`${ratioPrefix}bw${bw}`);
    if (rtt !== null) parts.push(`${ratioPrefix}rtt${rtt}`);
    parts.push(...pathQuirks(p, `${name} `));
  });
  return parts.join(" ");
}

function pathQuirks(p: PathConfig, prefix: string): string[] {
  const quirks: string[] = [];
  if (p.loss === null) quirks.push(`${prefix}loss ?`);
  else if (p.loss !== 0) quirks.push(`${prefix}loss ${+(p.loss * 100).toPrecision(12)}%`);
  if (p.queue === null) quirks.push(`${prefix}queue ?`);
  else if (p.queue.discipline !== "droptail") quirks.push(`${prefix}${p.queue.discipline}`);
  return quirks;
}

/** As familyKey's ratios: "×5", or " 20ms" when the first path's value is 0; null for an equal path. */
function relative(a: number | null, b: number | null, unit: string): string | null {
  if (a === null || b === null) return "×?";
  if (!(b > 0)) return ` ${a}${unit}`;
  const factor = +(a / b).toFixed(3);
  return factor === 1 ? null : `×${factor}`;
}

/** Where a network sits in its family's heatmap: the first path's bandwidth (or trace) and RTT. */
export interface GridPoint {
  /** null for a trace-driven path, which has no one rate. */
  bandwidthMbps: number | null;
  /** The downlink trace file of a trace-driven first path, else null. */
  trace: string | null;
  rttMs: number;
}

export function gridPointOf(n: NetworkConfig): GridPoint {
  const first = n.paths[0]!;
  return { bandwidthMbps: first.downMbps, trace: first.downMbps === null ? (first.trace?.downlink ?? "unknown trace") : null, rttMs: first.rttMs };
}

/** The heatmap row a grid point sits in: "10 Mbit/s", or the trace's file name. */
export function bandwidthLabel(p: GridPoint): string {
  return p.bandwidthMbps === null ? `trace ${p.trace!.replace(/^.*\//, "")}` : `${p.bandwidthMbps} Mbit/s`;
}

export function gridPointLabel(p: GridPoint): string {
  return `${bandwidthLabel(p)} · ${p.rttMs} ms`;
}

export function gridPointId(p: GridPoint): string {
  return JSON.stringify([p.bandwidthMbps, p.trace, p.rttMs]);
}

/** Rows by rising bandwidth, traces after rates (by name); then columns by rising RTT. */
export function compareGridPoints(a: GridPoint, b: GridPoint): number {
  return compareBandwidth(a, b) || a.rttMs - b.rttMs;
}

export function compareBandwidth(a: GridPoint, b: GridPoint): number {
  if (a.bandwidthMbps !== null && b.bandwidthMbps !== null) return a.bandwidthMbps - b.bandwidthMbps;
  if (a.bandwidthMbps !== null) return -1;
  if (b.bandwidthMbps !== null) return 1;
  return a.trace! < b.trace! ? -1 : a.trace! > b.trace! ? 1 : 0;
}
