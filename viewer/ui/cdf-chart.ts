/** CDFs over sites of how two configurations compare, one marker per site and a line per series. */
import type { CdfPoint } from "./results-data.js";

export interface CdfSeries {
  name: string;
  points: CdfPoint[];
}

export interface CdfLook {
  /** The first line is set in bold, the others say what is compared. */
  title: string[];
  xLabel: string;
  yLabel: string;
  /** Dashed vertical lines: where the two are equal, a margin. */
  guides: { value: number; label: string }[];
  /** A value as hovering a marker shows it. */
  valueText: (v: number) => string;
}

const WIDTH = 720;
const HEIGHT = 420;
const M = { left: 64, right: 24, top: 72, bottom: 52 };
const FONT = "Helvetica, Arial, sans-serif";

/** With one series there is no legend; with more, each has a colour of d3's ten. */
export function drawCdf(container: HTMLElement, series: CdfSeries[], look: CdfLook): void {
  const svg = d3.select(container).append("svg").attr("class", "exportable cdf").attr("width", WIDTH).attr("height", HEIGHT).attr("font-family", FONT).attr("font-size", 12);
  svg.append("rect").attr("width", WIDTH).attr("height", HEIGHT).attr("fill", "#ffffff");
  look.title.forEach((line, i) => svg.append("text").attr("x", 8).attr("y", 18 + 16 * i).attr("font-weight", i === 0 ? "bold" : null).text(line));
  const values = [...look.guides.map((g) => g.value), ...series.flatMap((s) => s.points.map((p) => p.value))];
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const pad = (hi - lo) * 0.05 || 1;
  const x = d3.scaleLinear().domain([lo - pad, hi + pad]).nice().range([M.left, WIDTH - M.right]);
  const y = d3.scaleLinear().domain([0, 1]).range([HEIGHT - M.bottom, M.top]);
  svg.append("g").attr("transform", `translate(0,${HEIGHT - M.bottom})`).call(d3.axisBottom(x).ticks(8));
  svg.append("g").attr("transform", `translate(${M.left},0)`).call(d3.axisLeft(y).ticks(5));
  svg.append("text").attr("x", (M.left + WIDTH - M.right) / 2).attr("y", HEIGHT - 12).attr("text-anchor", "middle").text(look.xLabel);
  svg.append("text").attr("transform", `translate(16,${(M.top + HEIGHT - M.bottom) / 2}) rotate(-90)`).attr("text-anchor", "middle").text(look.yLabel);
  look.guides.forEach((g, i) => {
    svg.append("line").attr("x1", x(g.value)).attr("x2", x(g.value)).attr("y1", y(0)).attr("y2", y(1)).attr("stroke", "#999999").attr("stroke-dasharray", "4,3");
    // Stacked, so that guides close together keep their labels apart.
    svg.append("text").attr("x", x(g.value) + 3).attr("y", M.top + 12 + 12 * i).attr("fill", "#777777").attr("font-size", 10).text(g.label);
  });
  const colour = (i: number) => (series.length === 1 ? "#0040ff" : d3.schemeTableau10[i % 10]!);
  const line = d3.line<[number, number]>().x((d) => x(d[0])).y((d) => y(d[1])).curve(d3.curveStepAfter);
  series.forEach((s, i) => {
    if (s.points.length === 0) return;
    const steps: [number, number][] = [[x.domain()[0]!, 0], ...s.points.map((p): [number, number] => [p.value, p.y]), [x.domain()[1]!, 1]];
    svg.append("path").attr("d", line(steps)).attr("fill", "none").attr("stroke", colour(i)).attr("stroke-width", 2);
    svg
      .selectAll(null)
      .data(s.points)
      .join("circle")
      .attr("class", "cdf-point")
      .attr("data-site", (p) => p.site)
      .attr("data-network", (p) => p.network)
      .attr("data-value", (p) => p.value)
      .attr("cx", (p) => x(p.value))
      .attr("cy", (p) => y(p.y))
      .attr("r", 3.5)
      .attr("fill", colour(i))
      .append("title")
      .text((p) => `${p.site} (${p.network}): ${look.valueText(p.value)}`);
  });
  if (series.length < 2) return;
  // Bottom right: the curves of a difference rise from the left, so this corner stays clear.
  const legend = svg.append("g").attr("class", "legend").attr("transform", `translate(${WIDTH - M.right - 200},${HEIGHT - M.bottom - 8 - 15 * series.length})`);
  series.forEach((s, i) => {
    legend.append("rect").attr("x", 0).attr("y", 15 * i).attr("width", 14).attr("height", 4).attr("fill", colour(i));
    legend.append("text").attr("x", 20).attr("y", 15 * i + 6).attr("font-size", 11).text(s.name);
  });
}
