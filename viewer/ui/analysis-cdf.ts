/** A comparison's per-site differences (baseline − candidate) as CDFs, a line per grid point. */
import type { AnalysedComparison, AnalysedPoint } from "../src/server/api.js";
import { drawCdf, type CdfSeries } from "./cdf-chart.js";
import { cdfPoints } from "./results-data.js";

/** More lines than d3's ten colours cannot be told apart: then one line over every grid point. */
const MAX_LINES = 10;

export function drawDifferenceCdf(container: HTMLElement, c: AnalysedComparison, metricTitle: string, marginMs: number): void {
  const measured = c.points.filter((q) => q.differences.length > 0);
  const where = (q: AnalysedPoint) => `${q.row}, ${q.point.rttMs} ms`;
  const points = (qs: AnalysedPoint[]) => cdfPoints(qs.flatMap((q) => q.differences.map((d) => ({ site: d.site, network: where(q), value: d.differenceMs }))));
  const series: CdfSeries[] =
    measured.length <= MAX_LINES
      ? measured.map((q) => ({ name: `${where(q)} (${q.differences.length} sites)`, points: points([q]) }))
      : [{ name: "every grid point", points: points(measured) }];
  drawCdf(container, series, {
    title: [`Per-site difference in mean ${metricTitle}`, `baseline: ${c.baseline}`, `candidate: ${c.candidate}`],
    xLabel: "baseline − candidate (ms) per site; right of 0: the candidate is faster",
    yLabel: "fraction of sites",
    guides: [
      { value: 0, label: "no difference" },
      { value: -marginMs, label: `margin: ${marginMs} ms slower` },
    ],
    valueText: (v) => `${v.toFixed(1)} ms`,
  });
}
