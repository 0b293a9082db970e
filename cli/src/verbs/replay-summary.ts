/** What `pagepath replay` prints of a run: the load, how the bytes split over the paths and by whose choice, where the file went. */
import { dirname } from "node:path";
import { pathShares, schedulerLabel, type PathShare, type RunResult } from "@pagepath/results";
import { shownPath } from "../shown-path.js";

export function replaySummary(r: RunResult, file: string): string {
  const m = r.metrics;
  const f = (x: number | null) => (x === null ? "not measured" : `${x.toFixed(0)} ms`);
  const paths = r.paths.map((p) => `path ${p.path}: ${kb(p.bytesDown)} down, ${kb(p.bytesUp)} up`).join("; ");
  return [
    `${r.status}${r.error ? `: ${r.error}` : ""}`,
    `  DOMContentLoaded ${f(m.domContentLoadedMs)}, load ${f(m.loadMs)}, whole graph ${f(m.graphCompleteMs)}`,
    `  first contentful paint ${f(m.firstContentfulPaintMs ?? null)}, largest contentful paint ${f(m.largestContentfulPaintMs ?? null)}${m.largestContentfulPaintMissing ? ` (${m.largestContentfulPaintMissing})` : ""}`,
    ...shareLines(r),
    `  ${r.requests?.length ?? 0} requests over ${r.connections.length} connections; ${paths}`,
    ...r.warnings.slice(0, 5).map((w) => `  warning: ${w}`),
    `run result: ${shownPath(file)}`,
    `  as a trace for Perfetto: pagepath trace ${shownPath(file)}`,
    `  in the viewer: pagepath view ${shownPath(dirname(file))}`,
    "",
  ].join("\n");
}

/** On one path there is nothing to share out and no scheduler to name, so those runs print none. */
function shareLines(r: RunResult): string[] {
  const c = r.configuration;
  if (c.network.paths.length < 2 && !c.scheduler) return [];
  const scheduler = c.scheduler === undefined ? "not recorded" : c.scheduler === null ? `none (${c.transport} uses one path)` : schedulerLabel(c.scheduler);
  const shares = pathShares(r);
  const wire = (s: PathShare) => `path ${s.path} ${percent(s.wireShare)} (${kb(s.wireBytesDown)})`;
  const response = (s: PathShare) => `path ${s.path} ${percent(s.responseShare)} (${kb(s.responseBytes)})`;
  const responses = shares.some((s) => s.responseBytes !== null) ? shares.map(response).join(", ") : "not recorded per path";
  return [
    `  scheduler: ${scheduler}`,
    `  bytes down on the wire: ${shares.map(wire).join(", ")}; response bytes sent: ${responses}`,
  ];
}

const kb = (b: number | null) => (b === null ? "?" : `${(b / 1000).toFixed(0)} kB`);
const percent = (v: number | null) => (v === null ? "?%" : `${(v * 100).toFixed(0)}%`);
