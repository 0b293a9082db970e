import type { GraphNode } from "@pagepath/graph-builder";
import { loadHeaders, loadLayout, type SiteData } from "./site-data.js";
import type { GraphHeaders } from "../src/server/headers-api.js";
import { go, LANE_CHOICES, type Lanes, type ViewState } from "./state.js";
import { timelineLanes } from "./timeline-lanes.js";
import { barSeries, changedNodes, drawLegend, drawRunMetrics, METRIC_LINES_PER_RUN, pathRows, runEnd } from "./timeline-replay.js";
import { chosenRuns, runControls, runsOf, wireRunControls } from "./timeline-runs.js";
import { isWhatIf, whatIfControls, whatIfSchedulers, wireWhatIf, withWhatIfs } from "./timeline-what-if.js";
import { drawPathLegend, drawPathSegments, pathLegendHeight, shows } from "./timeline-path-use.js";
import { drawMarkers, MARKER_LINE, markerLineCount, pageMarkers } from "./timeline-markers.js";
import { drawPhaseLegend, drawPhases, drawTypeStripes, PHASE_LEGEND_HEIGHT, RUN_STRIP } from "./timeline-phases.js";
import { rowSummary } from "./timeline-hover.js";
import type { ViewHandlers } from "./graph-view.js";

const ROW = 12;
const LANE_GAP = 16;
const LABEL_WIDTH = 280;
const PLOT_WIDTH = 1100;

function laneSelector(current: Lanes): string {
  const options = LANE_CHOICES.map((l) => `<option value="${l}"${l === current ? " selected" : ""}>by ${l}</option>`).join("");
  return `<label>network lanes <select id="lanes">${options}</select></label>`;
}

/**
 * A waterfall of every node against recorded time (ms since navigation start), coloured as dot colours
 * kinds, a fetch's bar split into its request phases as DevTools draws them; with a replayed run
 * chosen, each row also has the run's bar, or with two runs, the runs' bars.
 */
export async function renderTimeline(main: HTMLElement, site: SiteData, state: ViewState, on: ViewHandlers): Promise<void> {
  // The previous drawing stays on screen while this one loads; it must not pass for this one.
  main.querySelector(".timeline-scroll svg")?.removeAttribute("data-drawn");
  // The layout's palette is the one dot drew with; it is cached, so this is usually instant.
  const [layout, runs, schedulers] = await Promise.all([loadLayout(site.file, state.rankdir, false), runsOf(site.file, !isWhatIf(state.run)).then((r) => withWhatIfs(r, site.file, state)), whatIfSchedulers()]);
  const { a, b } = chosenRuns(runs, state);
  main.innerHTML = `<div class="toolbar">${laneSelector(state.lanes)}${runControls(runs, state, a, b)}<span class="note">ms since navigation start; main thread per frame</span></div><div class="toolbar">${whatIfControls(state, schedulers)}</div><div class="timeline-scroll"></div>`;
  main.querySelector<HTMLSelectElement>("#lanes")!.addEventListener("change", (e) => go({ lanes: (e.target as HTMLSelectElement).value as Lanes }));
  wireRunControls(main);
  wireWhatIf(main, state);
  const series = barSeries(layout.kindColors, a, b);
  const shown = [a, b].filter((r) => r !== null);
  const changed = a && b ? changedNodes(a, b, state.threshold) : new Set<string>();
  const rowHeight = ROW * series.length;
  const lanes = timelineLanes(site.graph, state.lanes, a?.run.connections ?? null);
  const end = Math.max(d3.max(site.graph.nodes, (n) => n.end) ?? 1, ...shown.map(runEnd));
  const x = d3.scaleLinear().domain([0, end]).range([LABEL_WIDTH, LABEL_WIDTH + PLOT_WIDTH]).nice();
  const rows: { n: GraphNode; y: number }[] = [];
  const headers: { lane: string; y: number }[] = [];
  const markers = pageMarkers(site.graph);
  const markerTop = 36;
  const runMetricTop = markerTop + MARKER_LINE * markerLineCount(markers, x);
  // Just above the last marker or run metric label's baseline, so that the legends below clear it.
  let y = runMetricTop - 16 + 10 * METRIC_LINES_PER_RUN * shown.length;
  const phaseLegendTop = y + 8;
  y = phaseLegendTop + PHASE_LEGEND_HEIGHT;
  const legendTop = y + 4;
  const legendHeight = pathLegendHeight(shown);
  if (legendHeight) y = legendTop + legendHeight;
  for (const { label: lane, nodes } of lanes) {
    headers.push({ lane, y: y + LANE_GAP - 4 });
    y += LANE_GAP;
    for (const n of nodes) rows.push({ n, y: (y += rowHeight) - rowHeight });
  }
  const paths = pathRows(shown);
  if (paths.length) headers.push({ lane: "by path (the runs' bytes on the wire)", y: (y += LANE_GAP) - 4 });
  const pathY = y;
  y += ROW * paths.length;
  const svg = d3.select(main).select(".timeline-scroll").append("svg").attr("class", "exportable").attr("xmlns", "http://www.w3.org/2000/svg").attr("width", LABEL_WIDTH + PLOT_WIDTH + 20).attr("height", y + 10).attr("font-family", "Helvetica");
  svg.append("rect").attr("width", "100%").attr("height", "100%").attr("fill", "#ffffff");
  svg.append("g").attr("transform", "translate(0,24)").call(d3.axisTop(x).ticks(12)).attr("font-size", 10);
  drawMarkers(svg, markers, x, markerTop, y);
  drawRunMetrics(svg, x, shown, y, runMetricTop);
  if (shown.length) drawLegend(svg, series);
  drawPhaseLegend(svg, phaseLegendTop);
  drawPathLegend(svg, shown, legendTop);
  svg.append("g").selectAll("text").data(headers).join("text").attr("class", "lane").attr("x", 4).attr("y", (h) => h.y).attr("font-size", 11).attr("font-weight", "bold").text((h) => h.lane);
  svg.append("g").selectAll("text").data(paths).join("text").attr("class", "path-row").attr("data-run", (p) => p.run).attr("data-path", (p) => p.path).attr("x", 12).attr("y", (_, i) => pathY + (i + 1) * ROW - 3).attr("font-size", 9).text((p) => p.text);
  const row = svg.append("g").selectAll("g").data(rows).join("g").attr("class", "bar").classed("changed", (r) => changed.has(r.n.id)).attr("data-id", (r) => r.n.id).style("cursor", "pointer");
  drawTypeStripes(row, (r) => r.y, rowHeight - 3);
  row.append("text").attr("x", 12).attr("y", (r) => r.y + ROW - 3).attr("font-size", 9).attr("fill", (r) => (changed.has(r.n.id) ? "#c53030" : "#000000")).text((r) => `${changed.has(r.n.id) ? "Δ " : ""}${r.n.label.split("\n")[0]!.slice(0, 48)}`);
  series.forEach((s, i) => {
    const top = (r: { y: number }) => r.y + i * ROW;
    const timed = row.filter((r) => s.at(r.n) !== null);
    timed
      .append("rect")
      .attr("class", s.run ? "replayed" : "recorded")
      .attr("data-run", s.name)
      .attr("x", (r) => x(s.at(r.n)!.start))
      .attr("y", (r) => top(r) + 2)
      .attr("width", (r) => Math.max(1.5, x(s.at(r.n)!.end) - x(s.at(r.n)!.start)))
      .attr("height", ROW - 3)
      .attr("fill", (r) => s.fill(r.n))
      .attr("opacity", (r) => (r.n.excluded ? 0.35 : s.run ? 0.8 : 1))
      .attr("stroke", (r) => (site.critical.has(r.n.id) ? "#000000" : (r.n.id === state.node ? "#ffbf00" : "none")))
      .attr("stroke-width", (r) => (r.n.id === state.node ? 3 : 1));
    // A multipath run's bar is split by path instead: both at once would not read.
    const strip = s.run ? RUN_STRIP : 0;
    if (!s.run || !shows(s.run)) drawPhases(timed, s.name, x, s.at, s.phases, (r) => top(r) + 2 + strip, ROW - 3 - strip);
    drawPathSegments(row, s, x, (r) => top(r) + 2, ROW - 3);
    // Never drawn at a guessed time: the run did not time this node, and the row says so.
    row.filter((r) => s.at(r.n) === null).append("text").attr("class", "not-in-run").attr("data-run", s.name).attr("x", (r) => x(r.n.start)).attr("y", (r) => top(r) + ROW - 3).attr("font-size", 8).attr("fill", "#c53030").text(`not in ${s.name}`);
  });
  // Read from the recording while the user looks: the hover shows them once they are here.
  let archived: GraphHeaders | null = null;
  loadHeaders(site.file).then((h) => void (archived = h), (e: Error) => void (archived = { missing: e.message, nodes: {} }));
  row
    .on("mouseenter", (e: MouseEvent, r) => on.tooltip.show(e, rowSummary(r.n, site, shown, archived)))
    .on("mousemove", (e: MouseEvent) => on.tooltip.move(e))
    .on("mouseleave", () => on.tooltip.hide())
    .on("click", (_, r) => on.select(r.n.id));
  svg.attr("data-site", site.file).attr("data-drawn", "1");
}
