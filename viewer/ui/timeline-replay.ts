/** What the timeline draws of replayed runs: their bars beside the recorded ones, metrics, changes and bytes per path. */
import type { GraphNode, ResourcePhases } from "@pagepath/graph-builder";
import type { PathBytes } from "@pagepath/results";
import { bytes } from "./format.js";
import type { ShownRun } from "./timeline-runs.js";

type Svg = d3.Selection<SVGSVGElement, unknown, null, undefined>;
type Scale = d3.ScaleLinear<number, number>;

/** One bar of each node's row: the recording or a run; a run that did not time a node has no bar. */
export interface Series {
  name: string;
  run: ShownRun | null;
  fill: (n: GraphNode) => string;
  at: (n: GraphNode) => { start: number; end: number } | null;
  /** The node's request phases as this series knows them. */
  phases: (n: GraphNode) => ResourcePhases | null | undefined;
}

/** Recorded over the run; for two runs, the runs only, as the comparison is between them. */
export function barSeries(kindColors: Record<string, string>, a: ShownRun | null, b: ShownRun | null): Series[] {
  const recorded: Series = { name: "recorded", run: null, fill: (n) => kindColors[n.kind] ?? "#808080", at: (n) => n, phases: (n) => n.resource?.phases };
  const of = (s: ShownRun): Series => ({ name: s.name, run: s, fill: () => s.color, at: (n) => s.timing.get(n.id) ?? null, phases: (n) => s.phases.get(n.id) });
  if (!a) return [recorded];
  return b ? [of(a), of(b)] : [recorded, of(a)];
}

/** The latest time a run shows, so that its bars and metrics fit the axis. */
export function runEnd(s: ShownRun | null): number {
  if (!s) return 0;
  const m = s.run.metrics;
  return Math.max(0, ...[...s.timing.values()].map((t) => t.end), ...[m.domContentLoadedMs, m.loadMs, m.graphCompleteMs].filter((v) => v !== null));
}

/** Nodes both runs timed whose start or end moved by more than `threshold` ms. */
export function changedNodes(a: ShownRun, b: ShownRun, threshold: number): Set<string> {
  const out = new Set<string>();
  for (const [id, ta] of a.timing) {
    const tb = b.timing.get(id);
    if (tb && (Math.abs(ta.start - tb.start) > threshold || Math.abs(ta.end - tb.end) > threshold)) out.add(id);
  }
  return out;
}

/** Label lines the runs' metrics take above the lanes: two per run, as DOMContentLoaded and load often nearly coincide. */
export const METRIC_LINES_PER_RUN = 2;

/** Each run's DOMContentLoaded and load, in its colour, below the recorded ones' labels; null is not drawn. */
export function drawRunMetrics(svg: Svg, x: Scale, runs: ShownRun[], bottom: number, top: number): void {
  runs.forEach((s, i) => {
    const metrics = [["DOMContentLoaded", s.run.metrics.domContentLoadedMs], ["load", s.run.metrics.loadMs]] as const;
    metrics.forEach(([name, t], j) => {
      if (t === null) return;
      const g = svg.append("g").attr("class", "run-metric").attr("data-run", s.name).attr("data-metric", name);
      g.append("line").attr("x1", x(t)).attr("x2", x(t)).attr("y1", 26).attr("y2", bottom).attr("stroke", s.color).attr("stroke-dasharray", "2,2");
      g.append("text").attr("x", x(t) + 3).attr("y", top + 10 * (METRIC_LINES_PER_RUN * i + j)).attr("font-size", 10).attr("fill", s.color).text(`${s.name} ${name}`);
    });
  });
}

export function drawLegend(svg: Svg, series: Series[]): void {
  const g = svg.append("g").attr("class", "legend").attr("font-size", 9);
  series.forEach((s, i) => {
    const color = s.run ? s.run.color : "#a0a0a0";
    g.append("rect").attr("x", 4 + i * 90).attr("y", 4).attr("width", 10).attr("height", 8).attr("fill", color);
    g.append("text").attr("x", 17 + i * 90).attr("y", 11).text(s.run ? s.name : "recorded (by kind)");
  });
}

function pathText(p: PathBytes): string {
  const b = (v: number | null) => (v === null ? "not measured" : bytes(v));
  return `↑ ${b(p.bytesUp)} ↓ ${b(p.bytesDown)}`;
}

/** Per run and path, what the path carried and over which of the run's connections. */
export function pathRows(runs: ShownRun[]): { run: string; path: number; text: string }[] {
  return runs.flatMap((s) =>
    s.run.paths.map((p) => {
      const conns = s.run.connections.flatMap((c) => c.paths.filter((cp) => cp.path === p.path).map((cp) => `#${c.id} ${pathText(cp)}`));
      return { run: s.name, path: p.path, text: `${s.name} path ${p.path}: ${pathText(p)}${conns.length ? `; ${conns.join("; ")}` : ""}` };
    }),
  );
}
