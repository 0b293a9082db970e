/**
 * The analysis tab: what `pagepath analyze` makes of the experiment (GET /api/analysis) for the chosen
 * baseline, candidate, metric and margin: per comparison its heatmaps, table and CDF, then the
 * aggregation benefit. An analysis the server refuses (a selector that fits nothing) shows its message.
 */
import type { AnalysisData, ExperimentData } from "../src/server/api.js";
import { drawDifferenceCdf } from "./analysis-cdf.js";
import { drawComparisonHeatmaps } from "./analysis-heatmaps.js";
import { drawBenefit, drawPointTable } from "./analysis-tables.js";
import { fetchJson } from "./fetch-json.js";
import { escapeHtml, percent } from "./format.js";
import { numberControl, selectControl } from "./results-controls.js";
import type { ResultsState } from "./results-state.js";

export async function showAnalysis(x: ExperimentData, s: ResultsState, controls: HTMLElement, body: HTMLElement, change: (c: Partial<ResultsState>) => void): Promise<void> {
  const listed = x.analysisChoices.configurations.map((c): [string, string] => [c.selector, c.label]);
  // A selector from a link that is none of the listed ones stays shown, so that its error makes sense.
  const options = (first: string, current: string | null): [string, string][] => [["", first], ...listed, ...(current && !listed.some(([v]) => v === current) ? [[current, current] as [string, string]] : [])];
  controls.append(
    selectControl("analysis-baseline", "baseline", options("default: two configurations per family", s.baseline), s.baseline ?? "", (v) => change(v ? { baseline: v } : { baseline: null, candidate: null })),
    selectControl("analysis-candidate", "candidate", options("every configuration but the baseline", s.candidate), s.candidate ?? "", (v) => change({ candidate: v || null })),
    selectControl("analysis-metric", "metric", Object.entries(x.analysisChoices.metrics), s.metric ?? "", (v) => change({ metric: v })),
    numberControl("analysis-margin", "margin ms", s.margin ?? "", (v) => change({ margin: v === "" ? null : v })),
  );
  // Candidates are paired with a baseline: without one the analysis chooses both.
  controls.querySelector<HTMLSelectElement>("#analysis-candidate")!.disabled = s.baseline === null && s.candidate === null;
  body.innerHTML = '<p class="note">analysing…</p>';
  const query = new URLSearchParams({ file: x.file });
  for (const [key, value] of [["baseline", s.baseline], ["candidate", s.candidate], ["metric", s.metric], ["margin", s.margin]] as const) if (value !== null) query.set(key, value);
  let a: AnalysisData;
  try {
    a = await fetchJson<AnalysisData>(`/api/analysis?${query}`);
  } catch (e) {
    if (body.isConnected) body.innerHTML = `<div class="error-box analysis-error">${escapeHtml((e as Error).message)}</div>`;
    return;
  }
  // The user may have chosen again while this one was being computed: a newer render replaced the body.
  if (!body.isConnected) return;
  // The analysis says which defaults it took.
  controls.querySelector<HTMLSelectElement>("#analysis-metric")!.value = a.metric;
  controls.querySelector<HTMLInputElement>("#analysis-margin")!.value = String(a.marginMs);
  const metricTitle = x.analysisChoices.metrics[a.metric];
  const r = a.runs;
  body.innerHTML = `<p class="note">Metric: ${escapeHtml(metricTitle)}; "equal or better" within ${a.marginMs} ms. ${r.done} of ${r.planned} runs have a result (${r.ok} ok, ${r.failed} failed, ${r.incomplete} incomplete); only ok runs that measured the metric count. Compared: ${escapeHtml(a.selection)}.</p>`;
  for (const c of a.comparisons) {
    const section = d3.select(body).append("section").attr("class", "comparison").attr("data-id", c.id);
    section.append("h3").text(`${c.candidate} vs ${c.baseline} (baseline)`);
    const o = c.overall;
    section.append("p").attr("class", "note").text(o.pairedSites === 0 ? "No site was measured under both at any grid point." : `Over all ${o.pairedSites} site × grid point pairs: reduction ${percent(o.reductionPercent)}, ${percent(o.equalOrBetterPercent)} equal or better. Differences are baseline − candidate; p-values are two-sided.`);
    const node = section.node()!;
    drawComparisonHeatmaps(section.append("div").attr("class", "heatmaps").node()!, c, metricTitle, a.marginMs);
    drawPointTable(node, c);
    drawDifferenceCdf(node, c, metricTitle, a.marginMs);
  }
  const benefit = d3.select(body).append("section").attr("class", "benefit");
  benefit.append("h3").text("Experimental aggregation benefit");
  drawBenefit(benefit.node()!, a.aggregationBenefit, x.places);
}
