/**
 * A heatmap over the first path's bandwidth (rows, slowest on top, traces last) and RTT (columns), as
 * the thesis's Figures 4.15, 4.16, 6.4 and 6.6 lay them out. Styles are attributes, so the exported
 * SVG looks the same.
 */
import type { GridPoint } from "@pagepath/results";

/** A grid point as the server placed it: `row` is its bandwidth's label. */
export interface Placed {
  point: GridPoint;
  row: string;
}

export interface HeatCell extends Placed {
  /** null: nothing to colour (grey, dashed border); `text` says why. */
  value: number | null;
  text: string;
  /** Shown on hover. */
  title: string;
}

/** How values become colours; the legend spans `domain`, on a log axis if `log`, its ticks in d3 `format`. */
export interface HeatScale {
  colour: (v: number) => string;
  domain: [number, number];
  log: boolean;
  format: string;
  unit: string;
}

export interface HeatmapLook {
  /** The svg's class besides "heatmap". */
  kind: string;
  /** Set in bold; the notes under it say what is compared and what the values are. */
  title: string;
  notes: string[];
  /** null when no cell has a value. */
  scale: HeatScale | null;
}

const CELL_W = 100;
const CELL_H = 40;
const LEFT = 110;
const LEGEND_W = 14;
const FONT = "Helvetica, Arial, sans-serif";
/** Gradients are found by id, and a page shows several legends. */
let legends = 0;

/** Rising bandwidth, traces after rates (by file); the library orders its grid points so too. */
function byBandwidth(a: GridPoint, b: GridPoint): number {
  if (a.bandwidthMbps !== null && b.bandwidthMbps !== null) return a.bandwidthMbps - b.bandwidthMbps;
  if (a.bandwidthMbps !== null || b.bandwidthMbps !== null) return a.bandwidthMbps === null ? 1 : -1;
  return a.trace!.localeCompare(b.trace!);
}

/** Draws one cell per grid point; places on the grid without one stay blank. */
export function drawHeatmap(container: HTMLElement, cells: HeatCell[], look: HeatmapLook): void {
  const rows = [...new Map(cells.map((c) => [c.row, c.point])).entries()].sort((a, b) => byBandwidth(a[1], b[1])).map(([row]) => row);
  const rtts = [...new Set(cells.map((c) => c.point.rttMs))].sort((a, b) => a - b);
  // The axis title goes a line below the last note.
  const top = 60 + 16 * look.notes.length;
  const gridW = rtts.length * CELL_W;
  const gridH = Math.max(rows.length * CELL_H, 120);
  const height = top + gridH + 20;
  const svg = d3.select(container).append("svg").attr("class", `exportable heatmap ${look.kind}`).attr("height", height).attr("font-family", FONT).attr("font-size", 12);
  const background = svg.append("rect").attr("height", height).attr("fill", "#ffffff");
  const lines = [svg.append("text").attr("x", 8).attr("y", 18).attr("font-weight", "bold").text(look.title)];
  look.notes.forEach((note, i) => lines.push(svg.append("text").attr("x", 8).attr("y", 34 + 16 * i).attr("fill", "#555555").text(note)));
  // Wide enough for the titles, which may name two configurations (measured where the drawing is on a page).
  const width = Math.max(LEFT + gridW + 110, ...lines.map((t) => 16 + t.node()!.getComputedTextLength()));
  svg.attr("width", width);
  background.attr("width", width);
  svg.append("text").attr("x", LEFT + gridW / 2).attr("y", top - 26).attr("text-anchor", "middle").attr("fill", "#555555").text("RTT of path 1 (ms)");
  const x = (rtt: number) => LEFT + rtts.indexOf(rtt) * CELL_W;
  const y = (row: string) => top + rows.indexOf(row) * CELL_H;
  svg.selectAll("text.col").data(rtts).join("text").attr("class", "col").attr("x", (r) => x(r) + CELL_W / 2).attr("y", top - 8).attr("text-anchor", "middle").text((r) => r);
  svg.append("text").attr("x", LEFT - 8).attr("y", top - 8).attr("text-anchor", "end").attr("fill", "#555555").text("down bandwidth");
  svg.selectAll("text.row").data(rows).join("text").attr("class", "row").attr("x", LEFT - 8).attr("y", (r) => y(r) + CELL_H / 2 + 4).attr("text-anchor", "end").text((r) => r);
  const cell = svg
    .selectAll("g.cell")
    .data(cells)
    .join("g")
    .attr("class", "cell")
    .attr("data-bandwidth", (c) => c.point.bandwidthMbps ?? c.point.trace)
    .attr("data-rtt", (c) => c.point.rttMs)
    .attr("data-value", (c) => c.value ?? "")
    .attr("transform", (c) => `translate(${x(c.point.rttMs)},${y(c.row)})`);
  cell.append("title").text((c) => c.title);
  const fill = (c: HeatCell) => (c.value !== null && look.scale ? look.scale.colour(c.value) : "#eeeeee");
  cell.append("rect").attr("width", CELL_W - 2).attr("height", CELL_H - 2).attr("fill", fill).attr("stroke", "#cccccc").attr("stroke-dasharray", (c) => (c.value === null ? "3,2" : null));
  cell
    .append("text")
    .attr("x", CELL_W / 2 - 1)
    .attr("y", CELL_H / 2 + 4)
    .attr("text-anchor", "middle")
    .attr("fill", (c) => (c.value === null ? "#777777" : d3.hcl(fill(c)).l > 55 ? "#000000" : "#ffffff"))
    .attr("font-style", (c) => (c.value === null ? "italic" : null))
    .text((c) => c.text);
  if (look.scale) drawLegend(svg, look.scale, LEFT + gridW + 24, top, gridH);
}

function drawLegend(svg: d3.Selection<SVGSVGElement, unknown, null, undefined>, scale: HeatScale, left: number, top: number, height: number): void {
  const position: d3.ScaleContinuousNumeric<number, number> = (scale.log ? d3.scaleLog() : d3.scaleLinear()).domain(scale.domain).range([height, 0]);
  const id = `heat-legend-${++legends}`;
  const gradient = svg.append("defs").append("linearGradient").attr("id", id).attr("x1", 0).attr("x2", 0).attr("y1", 1).attr("y2", 0);
  for (let i = 0; i <= 10; i++) gradient.append("stop").attr("offset", i / 10).attr("stop-color", scale.colour(position.invert(height - (height * i) / 10)));
  const g = svg.append("g").attr("class", "legend").attr("transform", `translate(${left},${top})`);
  g.append("rect").attr("width", LEGEND_W).attr("height", height).attr("fill", `url(#${id})`).attr("stroke", "#999999");
  // The ends are labelled so the reader sees the range; between them, evenly spaced on the scale.
  const ticks = d3.range(5).map((i) => position.invert(height - (height * i) / 4));
  g.append("g").attr("transform", `translate(${LEGEND_W},0)`).call(d3.axisRight(position).tickValues(ticks).tickFormat(d3.format(scale.format)));
  g.append("text").attr("x", 0).attr("y", -14).attr("fill", "#555555").text(scale.unit);
}
