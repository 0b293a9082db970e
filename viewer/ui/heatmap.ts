/**
 * A load-time heatmap over the first path's bandwidth (rows, slowest on top) and RTT (columns), as the
 * thesis's Figures 4.15-4.16 lay them out. Styles are attributes, so the exported SVG looks the same.
 */
import { msText, type HeatCell, type Heatmap } from "./results-data.js";

const CELL_W = 100;
const CELL_H = 40;
const LEFT = 110;
const TOP = 76;
const LEGEND_W = 14;
const FONT = "Helvetica, Arial, sans-serif";

/** Load times span orders of magnitude across a bandwidth grid: a log colour scale keeps both ends apart. */
function colourScale(domain: [number, number]): d3.ScaleSequential<string> {
  const [lo, hi] = domain;
  if (lo > 0 && hi > lo) return d3.scaleSequentialLog(d3.interpolateYlOrRd).domain(domain);
  return d3.scaleSequential(d3.interpolateYlOrRd).domain([lo, hi > lo ? hi : lo + 1]);
}

function cellText(c: HeatCell): string {
  if (!c.planned) return "";
  if (c.runs === 0) return "missing";
  return c.median === null ? "not measured" : msText(c.median);
}

function cellTitle(c: HeatCell): string {
  const where = `${c.bandwidth} Mbit/s, ${c.rtt} ms RTT`;
  if (!c.planned) return `${where}: not in the plan`;
  if (c.runs === 0) return `${where}: no run has finished yet`;
  const of = `${c.measured} of ${c.runs} runs measured a load time`;
  return c.median === null ? `${where}: ${of}` : `${where}: median load ${msText(c.median)} ms; ${of}`;
}

/** Draws into `container`; `domain` is shared by the heatmaps the user switches between, so colours compare. */
export function drawHeatmap(container: HTMLElement, map: Heatmap, domain: [number, number] | null, title: string): void {
  const cols = map.rtts.length;
  const rows = map.bandwidths.length;
  const gridW = cols * CELL_W;
  const gridH = Math.max(rows * CELL_H, 120);
  const width = LEFT + gridW + 110;
  const height = TOP + gridH + 20;
  const svg = d3.select(container).append("svg").attr("class", "exportable heatmap").attr("width", width).attr("height", height).attr("font-family", FONT).attr("font-size", 12);
  svg.append("rect").attr("width", width).attr("height", height).attr("fill", "#ffffff");
  svg.append("text").attr("x", 8).attr("y", 18).attr("font-weight", "bold").text(title);
  svg.append("text").attr("x", 8).attr("y", 34).attr("fill", "#555555").text("median load time (ms) over all sites and runs that measured one");
  svg.append("text").attr("x", LEFT + gridW / 2).attr("y", TOP - 26).attr("text-anchor", "middle").attr("fill", "#555555").text("RTT of path 1 (ms)");
  const colour = domain ? colourScale(domain) : null;
  const x = (rtt: number) => LEFT + map.rtts.indexOf(rtt) * CELL_W;
  const y = (bw: number) => TOP + map.bandwidths.indexOf(bw) * CELL_H;
  svg.selectAll("text.col").data(map.rtts).join("text").attr("class", "col").attr("x", (r) => x(r) + CELL_W / 2).attr("y", TOP - 8).attr("text-anchor", "middle").text((r) => r);
  svg.append("text").attr("x", LEFT - 8).attr("y", TOP - 8).attr("text-anchor", "end").attr("fill", "#555555").text("down bandwidth");
  svg.selectAll("text.row").data(map.bandwidths).join("text").attr("class", "row").attr("x", LEFT - 8).attr("y", (b) => y(b) + CELL_H / 2 + 4).attr("text-anchor", "end").text((b) => `${b} Mbit/s`);
  const cell = svg
    .selectAll("g.cell")
    .data(map.cells)
    .join("g")
    .attr("class", "cell")
    .attr("data-bandwidth", (c) => c.bandwidth)
    .attr("data-rtt", (c) => c.rtt)
    .attr("data-median", (c) => c.median ?? "")
    .attr("transform", (c) => `translate(${x(c.rtt)},${y(c.bandwidth)})`);
  cell.append("title").text(cellTitle);
  const fill = (c: HeatCell) => (c.median !== null && colour ? colour(c.median) : c.planned ? "#eeeeee" : "#ffffff");
  cell.append("rect").attr("width", CELL_W - 2).attr("height", CELL_H - 2).attr("fill", fill).attr("stroke", "#cccccc").attr("stroke-dasharray", (c) => (c.median === null ? "3,2" : null));
  cell
    .append("text")
    .attr("x", CELL_W / 2 - 1)
    .attr("y", CELL_H / 2 + 4)
    .attr("text-anchor", "middle")
    .attr("fill", (c) => (c.median === null ? "#777777" : d3.hcl(fill(c)).l > 55 ? "#000000" : "#ffffff"))
    .attr("font-style", (c) => (c.median === null ? "italic" : null))
    .text(cellText);
  if (colour) drawLegend(svg, colour, LEFT + gridW + 24, TOP, gridH);
}

function drawLegend(svg: d3.Selection<SVGSVGElement, unknown, null, undefined>, colour: d3.ScaleSequential<string>, left: number, top: number, height: number): void {
  const [lo, hi] = colour.domain() as [number, number];
  const position: d3.ScaleContinuousNumeric<number, number> = (lo > 0 ? d3.scaleLog() : d3.scaleLinear()).domain([lo, hi]).range([height, 0]);
  const id = "heat-legend";
  const gradient = svg.append("defs").append("linearGradient").attr("id", id).attr("x1", 0).attr("x2", 0).attr("y1", 1).attr("y2", 0);
  for (let i = 0; i <= 10; i++) gradient.append("stop").attr("offset", i / 10).attr("stop-color", colour(position.invert(height - (height * i) / 10)));
  const g = svg.append("g").attr("class", "legend").attr("transform", `translate(${left},${top})`);
  g.append("rect").attr("width", LEGEND_W).attr("height", height).attr("fill", `url(#${id})`).attr("stroke", "#999999");
  // The ends are labelled so the reader sees the range; between them, evenly spaced on the scale.
  const ticks = d3.range(5).map((i) => position.invert(height - (height * i) / 4));
  g.append("g").attr("transform", `translate(${LEGEND_W},0)`).call(d3.axisRight(position).tickValues(ticks).tickFormat(d3.format(".3~s")));
  g.append("text").attr("x", 0).attr("y", -14).attr("fill", "#555555").text("ms");
}
