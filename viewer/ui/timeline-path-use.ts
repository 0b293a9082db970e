/**
 * Which path carried each resource's bytes, on a run's bars: the bar is split into one segment per
 * path, as wide as that path's part of the response bytes, in the path's colour, over the run's colour
 * (a strip of which stays visible on top). The bar's span is when the client fetched; the per-path
 * send times are on the server's side of the network and two paths often overlap, so drawn at their
 * own times they would fall outside the bar or hide each other. Shares read at a glance; the times are
 * in each segment's title. A legend names each path and the run's scheduler, with the shares of bytes.
 */
import type { GraphNode } from "@pagepath/graph-builder";
import type { RequestPathBytes } from "@pagepath/results";
import { bytes, ms } from "./format.js";
import { pathColor, pathConfigText, shareText } from "./path-use-text.js";
import type { Series } from "./timeline-replay.js";
import type { ShownRun } from "./timeline-runs.js";

type Svg = d3.Selection<SVGSVGElement, unknown, null, undefined>;
type Rows = d3.Selection<d3.BaseType | SVGGElement, { n: GraphNode; y: number }, SVGGElement, unknown>;
type Scale = d3.ScaleLinear<number, number>;

/** Height of one legend line. */
const LINE = 12;
/** The run's colour stays visible above the segments, so they still say whose bar it is. */
const RUN_STRIP = 2;

/** A run tells its paths apart only when it had more than one, or a scheduler choosing between them. */
export function shows(s: ShownRun): boolean {
  return s.run.pathUse.network.length > 1 || s.run.pathUse.scheduler !== null;
}

export function pathLegendHeight(runs: ShownRun[]): number {
  return runs.filter(shows).reduce((h, s) => h + LINE * (1 + s.run.pathUse.network.length), 0);
}

function segmentTitle(p: RequestPathBytes, total: number): string {
  const packets = p.packets === null ? "" : ` in ${p.packets} packet${p.packets === 1 ? "" : "s"}`;
  return `path ${p.path}: ${bytes(p.bytes)}${packets} (${((100 * p.bytes) / total).toFixed(0)}% of this response's bytes sent), sent ${ms(p.firstMs)} to ${ms(p.lastMs)}`;
}

/** `barTop` and `barHeight` are those of the series' bar in each row. */
export function drawPathSegments(rows: Rows, s: Series, x: Scale, barTop: (r: { y: number }) => number, barHeight: number): void {
  const run = s.run;
  // One path and no scheduler: nothing was chosen, and the run's own colour says more.
  if (!run || !shows(run)) return;
  const carried = rows.filter((r) => s.at(r.n) !== null && (run.paths.get(r.n.id) ?? []).some((p) => p.bytes > 0));
  carried.each(function (r) {
    const span = s.at(r.n)!;
    const left = x(span.start);
    const width = Math.max(1.5, x(span.end) - left);
    const paths = run.paths.get(r.n.id)!;
    const total = d3.sum(paths, (p) => p.bytes);
    const g = d3.select(this as SVGGElement).append("g").attr("class", "path-segments").attr("data-run", s.name);
    let at = left;
    for (const p of paths) {
      const w = (width * p.bytes) / total;
      g.append("rect")
        .attr("class", "path-segment")
        .attr("data-run", s.name)
        .attr("data-path", p.path)
        .attr("data-bytes", p.bytes)
        .attr("x", at)
        .attr("y", barTop(r) + RUN_STRIP)
        .attr("width", w)
        .attr("height", barHeight - RUN_STRIP)
        .attr("fill", pathColor(p.path))
        .append("title")
        .text(segmentTitle(p, total));
      at += w;
    }
  });
}

/** Per run that has paths to tell apart: its scheduler and load, then each path's colour, link and share of the bytes. */
export function drawPathLegend(svg: Svg, runs: ShownRun[], top: number): void {
  let y = top;
  for (const s of runs.filter(shows)) {
    const use = s.run.pathUse;
    const g = svg.append("g").attr("class", "path-legend").attr("data-run", s.name).attr("font-size", 9);
    const scheduler = use.scheduler === null ? "scheduler not recorded" : `scheduler ${use.scheduler}`;
    const segments = s.paths.size > 0 ? "; its bars are split by the path that carried the response bytes" : "; no request recorded its bytes per path";
    g.append("text").attr("class", "path-legend-run").attr("x", 4).attr("y", (y += LINE) - 3).attr("fill", s.color).text(`${s.name}: ${scheduler}; load ${s.run.metrics.loadMs === null ? "not measured" : ms(s.run.metrics.loadMs)}${segments}`);
    use.network.forEach((config, path) => {
      const key = g.append("g").attr("class", "path-key").attr("data-path", path);
      key.append("rect").attr("x", 12).attr("y", y + 2).attr("width", 10).attr("height", 8).attr("fill", pathColor(path));
      const share = use.shares.find((x) => x.path === path);
      key.append("text").attr("x", 26).attr("y", (y += LINE) - 3).text(`path ${path}: ${pathConfigText(config)}${share ? ` · ${shareText(share)}` : ""}`);
    });
  }
}
