/**
 * Heatmaps over bandwidth (rows) and RTT (columns), a value written in each cell and coloured on a
 * diverging scale (red below the centre, blue above), as the thesis's Figs 4.15, 4.16, 6.4 and 6.6.
 */
import type { Comparison, PointComparison } from "./compare-configurations.js";
import { METRIC_TITLES, type MetricName } from "./metric.js";
import { bandwidthLabel, compareBandwidth, type GridPoint } from "./network-family.js";
import { escapeXml, niceCeiling, SVG_FONT, svgDocument, svgNumber as n, svgText } from "./svg-parts.js";

export interface HeatmapPlot {
  title: string;
  subtitle: string;
  /** A third line under the title: how to read the values. */
  note: string;
  points: GridPoint[];
  /** The value at each point (null: nothing to show), its text, and what hovering tells. */
  cell: (p: GridPoint) => { value: number | null; text: string; detail: string };
  /** Colours are full at centre ± extent: below the centre red (worse), above it blue (better). */
  centre: number;
  extent: number;
  unit: string;
}

const CELL_W = 78;
const CELL_H = 40;
const M = { left: 150, top: 84, right: 150, bottom: 56 };
const RED = [178, 24, 43];
const WHITE = [247, 247, 247];
const BLUE = [33, 102, 172];
const MISSING = "#d9d9d9";

export function heatmapSvg(plot: HeatmapPlot): string {
  const rows = distinct(plot.points, compareBandwidth, (p) => bandwidthLabel(p));
  const columns = [...new Set(plot.points.map((p) => p.rttMs))].sort((a, b) => a - b);
  const gridW = columns.length * CELL_W;
  const gridH = rows.length * CELL_H;
  // Wide enough for the subtitle, which names both configurations.
  const width = Math.max(M.left + gridW + M.right, Math.ceil(plot.subtitle.length * 6.6) + 40);
  const height = M.top + Math.max(gridH, 160) + M.bottom;
  const out: string[] = [svgText(width / 2, 62, plot.note, "middle", 11, ` fill="#555"`)];
  rows.forEach((row, i) => {
    out.push(svgText(M.left - 8, M.top + i * CELL_H + CELL_H / 2 + 4, bandwidthLabel(row), "end", 11));
    columns.forEach((rtt, j) => {
      const point = plot.points.find((p) => bandwidthLabel(p) === bandwidthLabel(row) && p.rttMs === rtt);
      const x = M.left + j * CELL_W;
      const y = M.top + i * CELL_H;
      if (!point) return void out.push(`<rect x="${x}" y="${y}" width="${CELL_W}" height="${CELL_H}" fill="#fff" stroke="#eee"/>`);
      const c = plot.cell(point);
      const t = c.value === null ? null : Math.max(-1, Math.min(1, (c.value - plot.centre) / plot.extent));
      const fill = t === null ? MISSING : colour(t);
      out.push(`<rect class="cell" x="${x}" y="${y}" width="${CELL_W}" height="${CELL_H}" fill="${fill}" stroke="#fff"><title>${escapeXml(c.detail)}</title></rect>`);
      out.push(svgText(x + CELL_W / 2, y + CELL_H / 2 + 4, c.text, "middle", 12, t !== null && Math.abs(t) > 0.6 ? ` fill="#fff"` : ""));
    });
  });
  columns.forEach((rtt, j) => out.push(svgText(M.left + j * CELL_W + CELL_W / 2, M.top + gridH + 16, `${rtt} ms`, "middle", 11)));
  out.push(svgText(M.left + gridW / 2, M.top + gridH + 40, "RTT of path 1", "middle", 12));
  out.push(`<text transform="translate(18 ${n(M.top + gridH / 2)}) rotate(-90)" text-anchor="middle" font-size="12" ${SVG_FONT}>bandwidth of path 1 (down)</text>`);
  out.push(...legend(M.left + gridW + 30, M.top, plot));
  return svgDocument(width, height, plot.title, plot.subtitle, out);
}

/** A vertical colour bar from centre + extent (top) to centre - extent (bottom). */
function legend(x: number, y: number, plot: HeatmapPlot): string[] {
  const h = 140;
  const stops = Array.from({ length: 11 }, (_, i) => `<stop offset="${i / 10}" stop-color="${colour(1 - i / 5)}"/>`);
  const value = (v: number) => `${+v.toFixed(1)}${plot.unit}`;
  return [
    `<defs><linearGradient id="scale" x1="0" y1="0" x2="0" y2="1">${stops.join("")}</linearGradient></defs>`,
    `<rect x="${x}" y="${y}" width="14" height="${h}" fill="url(#scale)" stroke="#999"/>`,
    svgText(x + 20, y + 8, value(plot.centre + plot.extent), "start", 10),
    svgText(x + 20, y + h / 2 + 4, value(plot.centre), "start", 10),
    svgText(x + 20, y + h, value(plot.centre - plot.extent), "start", 10),
    `<rect x="${x}" y="${y + h + 14}" width="14" height="14" fill="${MISSING}"/>`,
    svgText(x + 20, y + h + 25, "no paired sites", "start", 10),
  ];
}

/** t from -1 (red) through 0 (white) to 1 (blue). */
function colour(t: number): string {
  const to = t < 0 ? RED : BLUE;
  const f = Math.abs(t);
  return `#${WHITE.map((w, i) => Math.round(w + (to[i]! - w) * f).toString(16).padStart(2, "0")).join("")}`;
}

function distinct<T>(items: T[], order: (a: T, b: T) => number, key: (t: T) => string): T[] {
  const seen = new Map<string, T>();
  for (const t of items) if (!seen.has(key(t))) seen.set(key(t), t);
  return [...seen.values()].sort(order);
}

/** The reduction and equal-or-better heatmaps of a comparison. */
export function comparisonHeatmaps(c: Comparison, metric: MetricName, marginMs: number): { reduction: string; equalOrBetter: string } {
  const subtitle = `${c.candidate}  vs  ${c.baseline} (baseline)`;
  const points = c.points.map((p) => p.point);
  const at = (p: GridPoint) => c.points.find((q) => q.point === p)!;
  const detail = (q: PointComparison) =>
    q.pairedSites === 0
      ? `no site measured under both configurations here`
      : `${q.pairedSites} sites paired: baseline mean ${q.baselineMeanMs!.toFixed(1)} ms, candidate ${q.candidateMeanMs!.toFixed(1)} ms, reduction ${q.reductionPercent?.toFixed(1) ?? "n/a"}%, ${q.equalOrBetterPercent!.toFixed(1)}% equal or better`;
  const reductions = c.points.map((q) => Math.abs(q.reductionPercent ?? 0));
  const reduction = heatmapSvg({
    title: `Reduction in mean ${METRIC_TITLES[metric]} (%)`,
    subtitle,
    note: "100 × Σ(baseline − candidate) / Σ baseline over the per-site means; above 0: the candidate is faster",
    points,
    cell: (p) => {
      const q = at(p);
      return { value: q.reductionPercent, text: q.reductionPercent === null ? "–" : `${q.reductionPercent.toFixed(1)}%`, detail: detail(q) };
    },
    centre: 0,
    extent: niceCeiling(Math.max(1, ...reductions)),
    unit: "%",
  });
  const equalOrBetter = heatmapSvg({
    title: `Sites with equal or better mean ${METRIC_TITLES[metric]} (%)`,
    subtitle,
    note: `share of sites whose candidate mean is at most the baseline mean + ${marginMs} ms`,
    points,
    cell: (p) => {
      const q = at(p);
      return { value: q.equalOrBetterPercent, text: q.equalOrBetterPercent === null ? "–" : `${q.equalOrBetterPercent.toFixed(1)}%`, detail: detail(q) };
    },
    centre: 50,
    extent: 50,
    unit: "%",
  });
  return { reduction, equalOrBetter };
}
