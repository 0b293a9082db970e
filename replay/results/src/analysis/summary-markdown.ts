/** The analysis as a Markdown report for people: summary.md. */
import type { AggregationBenefitReport } from "./aggregation-benefit.js";
import { comparisonPlotFiles } from "./analysis-files.js";
import type { ExperimentAnalysis } from "./analyze-experiment.js";
import type { Comparison } from "./compare-configurations.js";
import type { ConfigurationSummary } from "./configuration-statistics.js";
import { METRIC_FIELDS, METRIC_TITLES } from "./metric.js";
import { bandwidthLabel } from "./network-family.js";

export function summaryMarkdown(a: ExperimentAnalysis): string {
  const r = a.runs;
  const lines = [
    `# Analysis of experiment \`${a.experiment}\``,
    "",
    ...(a.description ? [`> ${a.description.replace(/\n/g, " ")}`, ""] : []),
    `Client ${a.client}; metric: ${METRIC_TITLES[a.metric]} (\`${METRIC_FIELDS[a.metric]}\`); margin for "equal or better": ${a.marginMs} ms.`,
    `Runs: ${r.done} of ${r.planned} planned have a result: ${r.ok} ok, ${r.failed} failed, ${r.incomplete} incomplete. Only ok runs that measured the ${METRIC_TITLES[a.metric]} count in the statistics.`,
    "",
    "## Configurations",
    "",
    ...a.configurations.flatMap(configurationSection),
    "## Comparisons",
    "",
    `Chosen: ${a.selection}. Differences are baseline − candidate, so above 0 the candidate is faster. p-values are two-sided: the Wilcoxon signed-rank test over the paired sites' means (normal approximation), one-way ANOVA over the runs of the paired sites.`,
    "",
    ...a.comparisons.flatMap(comparisonSection),
    "## Experimental aggregation benefit",
    "",
    ...benefitSection(a.aggregationBenefit),
    ...(a.warnings.length > 0 ? ["## Warnings from reading the experiment", "", ...a.warnings.map((w) => `- ${w}`), ""] : []),
  ];
  return lines.join("\n");
}

function configurationSection(c: ConfigurationSummary): string[] {
  return [
    `### ${c.label}`,
    "",
    table(
      ["network", "bandwidth", "RTT ms", "runs", "ok", "failed", "incomplete", "mean ms", "median ms", "p90 ms", "sd ms"],
      c.byNetwork.map((s) => [s.network, bandwidthLabel(s.point), String(s.point.rttMs), String(s.runs), String(s.ok), String(s.failed), String(s.incomplete), ms(s.meanMs), ms(s.medianMs), ms(s.p90Ms), ms(s.sdMs)]),
    ),
    "",
  ];
}

function comparisonSection(c: Comparison): string[] {
  const o = c.overall;
  const files = comparisonPlotFiles(c.id);
  const unpaired = c.points.filter((p) => p.unpairedSites.length > 0).map((p) => `${bandwidthLabel(p.point)} · ${p.point.rttMs} ms: ${p.unpairedSites.join(", ")}`);
  return [
    `### ${c.id}`,
    "",
    `Candidate **${c.candidate}** against baseline **${c.baseline}**.`,
    "",
    o.pairedSites === 0
      ? "No site was measured under both configurations at any grid point."
      : `Over all ${o.pairedSites} site × grid point pairs: reduction ${pct(o.reductionPercent)}, mean difference ${ms(o.meanDifferenceMs)} ms, ${pct(o.equalOrBetterPercent)} equal or better.`,
    "",
    table(
      ["bandwidth", "RTT ms", "sites", "baseline mean ms", "candidate mean ms", "reduction", "mean diff ms", "equal or better", "Wilcoxon p", "ANOVA p"],
      c.points.map((p) => [
        bandwidthLabel(p.point),
        String(p.point.rttMs),
        String(p.pairedSites),
        ms(p.baselineMeanMs),
        ms(p.candidateMeanMs),
        pct(p.reductionPercent),
        ms(p.meanDifferenceMs),
        pct(p.equalOrBetterPercent),
        pValue(p.wilcoxon?.pValue ?? null),
        pValue(p.anova?.pValue ?? null),
      ]),
    ),
    "",
    ...(unpaired.length > 0 ? ["Sites measured under only one of the two (left out): " + unpaired.join("; ") + ".", ""] : []),
    `Plots: [reduction](${files.reduction}), [equal or better](${files.equalOrBetter}), [CDF of per-site differences](${files.cdf}).`,
    "",
  ];
}

function benefitSection(b: AggregationBenefitReport): string[] {
  if (b.note !== null) return [`Not applicable: ${b.note}.`, ""];
  const lines = ["EAB (seed 003 Eq. 5.1) per site from mean goodputs (downloaded bytes / load time), summarised per network: 0 is as good as the best path alone, 1 the sum of the paths.", ""];
  if (b.results.length > 0) {
    lines.push(
      table(
        ["multipath", "network", "bandwidth", "RTT ms", "sites", "mean EAB", "median EAB", "bytes from"],
        b.results.map((e) => [e.multipath, e.network, bandwidthLabel(e.point), String(e.point.rttMs), String(e.sites.length), e.meanEab.toFixed(3), e.medianEab.toFixed(3), e.bytesFrom]),
      ),
      "",
    );
  }
  const grouped = new Map<string, string[]>();
  for (const n of b.notApplicable) {
    const key = `${n.multipath}: ${n.reason}`;
    grouped.set(key, [...(grouped.get(key) ?? []), ...(n.network === null ? [] : [n.network])]);
  }
  if (grouped.size > 0) {
    lines.push("Not applicable:", "");
    for (const [what, networks] of grouped) lines.push(`- ${what}${networks.length > 0 ? ` (${networks.length} network${networks.length > 1 ? "s" : ""}: ${networks.join(", ")})` : ""}`);
    lines.push("");
  }
  return lines;
}

function table(head: string[], rows: string[][]): string {
  const cell = (s: string) => s.replace(/\|/g, "\\|");
  return [`| ${head.join(" | ")} |`, `|${head.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`, ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`)].join("\n");
}

function ms(v: number | null): string {
  return v === null ? "–" : v.toFixed(1);
}

function pct(v: number | null): string {
  return v === null ? "–" : `${v.toFixed(1)}%`;
}

function pValue(p: number | null): string {
  return p === null ? "–" : p < 0.001 ? "<0.001" : p.toFixed(3);
}
