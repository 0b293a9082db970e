/**
 * A comparison's two heatmaps over bandwidth x RTT, as the thesis draws them: the percentage reduction
 * of the mean (Figs 4.15a, 6.4) and the share of sites equal or better (Figs 4.16, 6.6), each on a
 * diverging scale: red where the candidate does worse, blue where it does better.
 */
import type { AnalysedComparison, AnalysedPoint } from "../src/server/api.js";
import { percent } from "./format.js";
import { drawHeatmap, type HeatCell, type HeatScale } from "./heatmap.js";

/** Full colour at centre ± extent, white at the centre. */
function diverging(centre: number, extent: number): HeatScale {
  const colour = d3.scaleDiverging(d3.interpolateRdBu).domain([centre - extent, centre, centre + extent]).clamp(true);
  return { colour, domain: [centre - extent, centre + extent], log: false, format: ".3~r", unit: "%" };
}

function detail(q: AnalysedPoint): string {
  const where = `${q.row}, ${q.point.rttMs} ms RTT`;
  if (q.pairedSites === 0) return `${where}: no site measured under both configurations`;
  return `${where}: ${q.pairedSites} sites paired; baseline mean ${q.baselineMeanMs!.toFixed(1)} ms, candidate ${q.candidateMeanMs!.toFixed(1)} ms; reduction ${percent(q.reductionPercent)}; ${percent(q.equalOrBetterPercent)} equal or better`;
}

function cells(c: AnalysedComparison, value: (q: AnalysedPoint) => number | null): HeatCell[] {
  return c.points.map((q) => ({ point: q.point, row: q.row, value: value(q), text: q.pairedSites === 0 ? "no pairs" : percent(value(q)), title: detail(q) }));
}

export function drawComparisonHeatmaps(container: HTMLElement, c: AnalysedComparison, metricTitle: string, marginMs: number): void {
  const compared = `${c.candidate}  vs  ${c.baseline} (baseline)`;
  // Symmetric around 0, so that as much better and as much worse look equally strong.
  const largest = Math.max(1, ...c.points.map((q) => Math.abs(q.reductionPercent ?? 0)));
  const extent = d3.scaleLinear().domain([0, largest]).nice().domain()[1]!;
  drawHeatmap(container, cells(c, (q) => q.reductionPercent), {
    kind: "reduction",
    title: `Reduction in mean ${metricTitle} (%)`,
    notes: [compared, "100 × Σ(baseline − candidate) / Σ baseline over the per-site means; above 0: the candidate is faster"],
    scale: diverging(0, extent),
  });
  drawHeatmap(container, cells(c, (q) => q.equalOrBetterPercent), {
    kind: "equal-or-better",
    title: `Sites with equal or better mean ${metricTitle} (%)`,
    notes: [compared, `share of sites whose candidate mean is at most the baseline mean + ${marginMs} ms`],
    scale: diverging(50, 50),
  });
}
