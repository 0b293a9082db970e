/** The load-time heatmap of one configuration: the median per grid point, on a colour scale shared across configurations. */
import { drawHeatmap, type HeatScale } from "./heatmap.js";
import { msText, type LoadCell } from "./results-data.js";

/** Load times span orders of magnitude across a bandwidth grid: a log colour scale keeps both ends apart. */
function loadScale(domain: [number, number]): HeatScale {
  const [lo, hi] = domain;
  const log = lo > 0 && hi > lo;
  const colour = log ? d3.scaleSequentialLog(d3.interpolateYlOrRd).domain(domain) : d3.scaleSequential(d3.interpolateYlOrRd).domain([lo, hi > lo ? hi : lo + 1]);
  return { colour, domain: colour.domain() as [number, number], log, format: ".3~s", unit: "ms" };
}

function cellText(c: LoadCell): string {
  if (c.runs === 0) return "missing";
  return c.median === null ? "not measured" : msText(c.median);
}

function cellTitle(c: LoadCell): string {
  const where = `${c.row}, ${c.point.rttMs} ms RTT`;
  if (c.runs === 0) return `${where}: no run has finished yet`;
  const of = `${c.measured} of ${c.runs} runs measured a load time`;
  return c.median === null ? `${where}: ${of}` : `${where}: median load ${msText(c.median)} ms; ${of}`;
}

/** `domain` is shared by the heatmaps the user switches between, so colours compare; null when nothing was measured. */
export function drawLoadHeatmap(container: HTMLElement, cells: LoadCell[], domain: [number, number] | null, title: string): void {
  drawHeatmap(container, cells.map((c) => ({ point: c.point, row: c.row, value: c.median, text: cellText(c), title: cellTitle(c) })), {
    kind: "load",
    title,
    notes: ["median load time (ms) over all sites and runs that measured one"],
    scale: domain && loadScale(domain),
  });
}
