/** The analysis in numbers: a comparison per grid point, and the experimental aggregation benefit. */
import type { AggregationBenefitReport, PairedMeasures } from "@pagepath/results";
import type { AnalysedComparison, NetworkPlace } from "../src/server/api.js";
import { percent } from "./format.js";

const num = (v: number | null, digits = 1) => (v === null ? "–" : v.toFixed(digits));
const pValue = (p: number | null | undefined) => (p === null || p === undefined ? "–" : p < 0.001 ? "<0.001" : p.toFixed(3));

/** A table with a header row; `rows` are cell texts, the first `left` columns aligned left. */
function table(container: HTMLElement, kind: string, head: string[], rows: string[][], left: number): void {
  const t = d3.select(container).append("table").attr("class", `analysis ${kind}`);
  const align = (_: unknown, i: number) => (i < left ? "left" : null);
  t.append("thead").append("tr").selectAll("th").data(head).join("th").attr("class", align).text((h) => h);
  t.append("tbody")
    .selectAll("tr")
    .data(rows)
    .join("tr")
    .selectAll("td")
    .data((r) => r)
    .join("td")
    .attr("class", align)
    .text((v) => v);
}

const measures = (m: PairedMeasures) => [String(m.pairedSites), num(m.baselineMeanMs), num(m.candidateMeanMs), percent(m.reductionPercent), num(m.meanDifferenceMs), percent(m.equalOrBetterPercent)];

export function drawPointTable(container: HTMLElement, c: AnalysedComparison): void {
  const rows = c.points.map((q) => [q.row, String(q.point.rttMs), ...measures(q), pValue(q.wilcoxon?.pValue), pValue(q.anova?.pValue)]);
  rows.push(["every grid point", "", ...measures(c.overall), "", ""]);
  table(container, "points", ["bandwidth", "RTT ms", "sites", "baseline mean ms", "candidate mean ms", "reduction", "mean diff ms", "equal or better", "Wilcoxon p", "ANOVA p"], rows, 1);
  const unpaired = c.points.filter((q) => q.unpairedSites.length > 0).map((q) => `${q.row}, ${q.point.rttMs} ms: ${q.unpairedSites.join(", ")}`);
  if (unpaired.length > 0) d3.select(container).append("p").attr("class", "note").text(`Measured under only one of the two, so left out: ${unpaired.join("; ")}.`);
}

/** The EAB per multipath configuration and network, with where and why it does not apply; or the note saying why it never does. */
export function drawBenefit(container: HTMLElement, b: AggregationBenefitReport, places: NetworkPlace[]): void {
  const note = (text: string) => d3.select(container).append("p").attr("class", "note benefit-note").text(text);
  if (b.note !== null) return void note(`Not applicable: ${b.note}.`);
  note("EAB (seed 003 Eq. 5.1) per site from mean goodputs (downloaded bytes / load time): 0 is as good as the best path alone, 1 the sum of the paths, −1 nothing transferred.");
  const rowOf = (network: string) => places.find((p) => p.network === network)!.row;
  if (b.results.length > 0) {
    const rows = b.results.map((e) => [e.multipath, e.singlePath, e.network, rowOf(e.network), String(e.point.rttMs), String(e.sites.length), num(e.meanEab, 3), num(e.medianEab, 3), e.bytesFrom]);
    table(container, "benefit", ["multipath", "single path", "network", "bandwidth", "RTT ms", "sites", "mean EAB", "median EAB", "bytes from"], rows, 4);
  }
  if (b.notApplicable.length > 0) {
    const list = d3.select(container).append("ul").attr("class", "not-applicable");
    for (const n of b.notApplicable) list.append("li").text(`${n.multipath}${n.network === null ? "" : ` on ${n.network}`}: not applicable: ${n.reason}`);
  }
}
