/** The CDF of per-site load-time differences between two configurations, one marker per paired site. */
import type { CdfPoint } from "./results-data.js";

const WIDTH = 720;
const HEIGHT = 420;
const M = { left: 64, right: 24, top: 72, bottom: 52 };
const FONT = "Helvetica, Arial, sans-serif";

/** `title`: the first line is set in bold, the others say what is compared. */
export function drawCdf(container: HTMLElement, points: CdfPoint[], scale: "diff" | "ratio", title: string[], xLabel: string, yLabel: string): void {
  const svg = d3.select(container).append("svg").attr("class", "exportable cdf").attr("width", WIDTH).attr("height", HEIGHT).attr("font-family", FONT).attr("font-size", 12);
  svg.append("rect").attr("width", WIDTH).attr("height", HEIGHT).attr("fill", "#ffffff");
  title.forEach((line, i) => svg.append("text").attr("x", 8).attr("y", 18 + 16 * i).attr("font-weight", i === 0 ? "bold" : null).text(line));
  // Where the two configurations are equal: left of it the first is faster.
  const even = scale === "diff" ? 0 : 1;
  const values = points.map((p) => p.value);
  const lo = Math.min(even, ...values);
  const hi = Math.max(even, ...values);
  const pad = (hi - lo) * 0.05 || 1;
  const x = d3.scaleLinear().domain([lo - pad, hi + pad]).nice().range([M.left, WIDTH - M.right]);
  const y = d3.scaleLinear().domain([0, 1]).range([HEIGHT - M.bottom, M.top]);
  svg.append("g").attr("transform", `translate(0,${HEIGHT - M.bottom})`).call(d3.axisBottom(x).ticks(8));
  svg.append("g").attr("transform", `translate(${M.left},0)`).call(d3.axisLeft(y).ticks(5));
  svg.append("text").attr("x", (M.left + WIDTH - M.right) / 2).attr("y", HEIGHT - 12).attr("text-anchor", "middle").text(xLabel);
  svg.append("text").attr("transform", `translate(16,${(M.top + HEIGHT - M.bottom) / 2}) rotate(-90)`).attr("text-anchor", "middle").text(yLabel);
  svg.append("line").attr("x1", x(even)).attr("x2", x(even)).attr("y1", y(0)).attr("y2", y(1)).attr("stroke", "#999999").attr("stroke-dasharray", "4,3");
  if (points.length === 0) return;
  const steps: [number, number][] = [[x.domain()[0]!, 0], ...points.map((p): [number, number] => [p.value, p.y]), [x.domain()[1]!, 1]];
  const line = d3.line<[number, number]>().x((d) => x(d[0])).y((d) => y(d[1])).curve(d3.curveStepAfter);
  svg.append("path").attr("d", line(steps)).attr("fill", "none").attr("stroke", "#0040ff").attr("stroke-width", 2);
  svg
    .selectAll("circle.cdf-point")
    .data(points)
    .join("circle")
    .attr("class", "cdf-point")
    .attr("data-site", (p) => p.site)
    .attr("data-network", (p) => p.network)
    .attr("data-value", (p) => p.value)
    .attr("cx", (p) => x(p.value))
    .attr("cy", (p) => y(p.y))
    .attr("r", 3.5)
    .attr("fill", "#0040ff")
    .append("title")
    .text((p) => `${p.site} (${p.network}): ${scale === "diff" ? `${p.value.toFixed(1)} ms` : `${p.value.toFixed(3)}x`}`);
}
