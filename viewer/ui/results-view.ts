/** The results view: the experiments, and for one of them its runs, heatmaps, CDFs and analysis (tabs). */
import type { ExperimentData } from "../src/server/api.js";
import { showAnalysis } from "./analysis-view.js";
import { drawCdf } from "./cdf-chart.js";
import { escapeHtml } from "./format.js";
import { fetchJson } from "./fetch-json.js";
import { drawLoadHeatmap } from "./load-heatmap.js";
import { selectControl } from "./results-controls.js";
import { cdf, configLabel, heatmap, planConfigs } from "./results-data.js";
import { renderExperimentList } from "./results-list.js";
import type { ResultsState, ResultsTab } from "./results-state.js";
import { drawRunsTable } from "./runs-table.js";
import { go, readState } from "./state.js";

const TAB_TITLES: Record<ResultsTab, string> = { runs: "runs", heatmap: "heatmaps", cdf: "CDF", analysis: "analysis" };
const FRESH = { tab: "runs", config: null, family: null, a: null, b: null, net: null, scale: "diff", baseline: null, candidate: null, metric: null, margin: null } as const;

/** Fetched once per experiment opened; opening the list again forgets it, so a growing sweep is re-read. */
let loaded: { file: string; data: Promise<ExperimentData> } | null = null;

function goResults(change: Partial<ResultsState>): void {
  go({ view: "results", results: { ...readState().results, ...change } });
}

export async function renderResults(main: HTMLElement, s: ResultsState): Promise<void> {
  if (!s.experiment) {
    loaded = null;
    return renderExperimentList(main, (file) => goResults({ ...FRESH, experiment: file }));
  }
  if (loaded?.file !== s.experiment) loaded = { file: s.experiment, data: fetchJson<ExperimentData>(`/api/experiment?file=${encodeURIComponent(s.experiment)}`) };
  const mine = loaded;
  const x = await mine.data.catch((e: Error) => {
    if (loaded === mine) loaded = null;
    throw e;
  });
  // The user may have moved on while the runs were loading.
  if (readState().results.experiment !== s.experiment) return;
  const done = x.runs.length;
  const tabs = (Object.keys(TAB_TITLES) as ResultsTab[]).map((t) => `<a data-tab="${t}" class="${t === s.tab ? "current" : ""}">${TAB_TITLES[t]}</a>`).join(" ");
  const warnings = x.warnings.length ? `<details class="warnings"><summary>${x.warnings.length} warning${x.warnings.length === 1 ? "" : "s"}</summary><ul>${x.warnings.map((w) => `<li>${escapeHtml(w)}</li>`).join("")}</ul></details>` : "";
  main.innerHTML = `<div class="toolbar results-head"><strong>${escapeHtml(x.plan.name)}</strong><span class="note">${escapeHtml(x.plan.description)}</span><span class="note">${done} runs (${x.plan.client} client)</span><span class="tabs">${tabs}</span></div>${warnings}<div class="toolbar" id="results-controls"></div><div id="results-body"></div>`;
  main.querySelectorAll<HTMLElement>("a[data-tab]").forEach((a) => a.addEventListener("click", () => goResults({ tab: a.dataset.tab as ResultsTab })));
  const controls = main.querySelector<HTMLElement>("#results-controls")!;
  const body = main.querySelector<HTMLElement>("#results-body")!;
  if (s.tab === "runs") {
    controls.remove();
    drawRunsTable(body, x.runs);
  } else if (s.tab === "heatmap") showHeatmap(x, s, controls, body);
  else if (s.tab === "cdf") showCdf(x, s, controls, body);
  else await showAnalysis(x, s, controls, body, goResults);
}

function showHeatmap(x: ExperimentData, s: ResultsState, controls: HTMLElement, body: HTMLElement): void {
  const configs = planConfigs(x);
  const families = new Map(x.places.map((p) => [p.familyKey, p.family]));
  const config = configs.find((c) => c === s.config) ?? configs[0]!;
  const family = families.has(s.family ?? "") ? s.family! : families.keys().next().value!;
  controls.append(selectControl("heat-config", "configuration", configs.map((c) => [c, configLabel(c)]), config, (v) => goResults({ config: v })));
  if (families.size > 1) controls.append(selectControl("heat-family", "networks", [...families], family, (v) => goResults({ family: v })));
  // One colour scale across the configurations, so switching between them compares like with like.
  const medians = configs.flatMap((c) => heatmap(x, c, family).flatMap((cell) => (cell.median === null ? [] : [cell.median])));
  const domain: [number, number] | null = medians.length ? [Math.min(...medians), Math.max(...medians)] : null;
  drawLoadHeatmap(body, heatmap(x, config, family), domain, `${x.plan.name}: ${configLabel(config)}${families.size > 1 ? `; ${families.get(family)}` : ""}`);
  body.insertAdjacentHTML("beforeend", `<p class="note">"missing": no run of the cell has finished; "not measured": runs finished but none measured a load time (failed runs do not count). Hover a cell for its run counts.</p>`);
}

function showCdf(x: ExperimentData, s: ResultsState, controls: HTMLElement, body: HTMLElement): void {
  const configs = planConfigs(x);
  const options = configs.map((c): [string, string] => [c, configLabel(c)]);
  const a = configs.find((c) => c === s.a) ?? configs[0]!;
  const b = configs.find((c) => c === s.b) ?? configs.find((c) => c !== a) ?? a;
  const nets = x.plan.networks.map((n) => n.name);
  const net = s.net === "*" || nets.includes(s.net ?? "") ? s.net! : nets[0]!;
  controls.append(
    selectControl("cdf-a", "A", options, a, (v) => goResults({ a: v })),
    selectControl("cdf-b", "B", options, b, (v) => goResults({ b: v })),
    selectControl("cdf-net", "network", [...nets.map((n): [string, string] => [n, n]), ["*", "all networks (one point per site and network)"]], net, (v) => goResults({ net: v })),
    selectControl("cdf-scale", "x", [["diff", "A − B (ms)"], ["ratio", "A / B"]], s.scale, (v) => goResults({ scale: v === "ratio" ? "ratio" : "diff" })),
  );
  const { points, unpaired } = cdf(x, a, b, net, s.scale);
  const xLabel = s.scale === "diff" ? "mean load time of A − mean load time of B (ms); below 0: A is faster" : "mean load time of A / mean load time of B; below 1: A is faster";
  const what = net === "*" ? "site and network pairs" : "sites";
  drawCdf(body, [{ name: "A vs B", points }], {
    title: [`${x.plan.name}, network ${net === "*" ? "all" : net}: ${points.length} ${what} paired`, `A: ${configLabel(a)}`, `B: ${configLabel(b)}`],
    xLabel,
    yLabel: `fraction of ${what}`,
    guides: [{ value: s.scale === "diff" ? 0 : 1, label: "A = B" }],
    valueText: (v) => (s.scale === "diff" ? `${v.toFixed(1)} ms` : `${v.toFixed(3)}x`),
  });
  const left = unpaired ? `${unpaired} site and network pairs have measured runs under only one of A and B and are left out. ` : "";
  body.insertAdjacentHTML("beforeend", `<p class="note">${left}A point's value is the site's mean over its runs that measured a load time; run r of A and of B share seed baseSeed + r.</p>`);
}
