import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { cdf, cdfSvg, type CdfPlot } from "@pagepath/corpus";
import {
  analyzeExperiment,
  ANALYSIS_FILES,
  bandwidthLabel,
  comparisonHeatmaps,
  comparisonPlotFiles,
  DEFAULT_MARGIN_MS,
  findExperimentResults,
  gridPointLabel,
  METRIC_TITLES,
  METRICS,
  PLAN_SUFFIX,
  planName,
  readExperiment,
  readPlanFile,
  runsCsv,
  summaryMarkdown,
  type Comparison,
  type ExperimentAnalysis,
  type MetricName,
  type PointComparison,
} from "@pagepath/results";
import { findExperiments } from "@pagepath/viewer";
import { numberOption, UsageError, type Verb } from "../verb.js";

export const analyzeVerb: Verb = {
  name: "analyze",
  summary: "summarise an experiment's results: statistics, comparisons with significance tests, heatmaps, CDFs",
  usage: `
usage: pagepath analyze <NAME.plan.json | FOLDER> [--metric load|dcl|graph|fcp|lcp] [--baseline SEL]
                        [--candidate SEL]... [--margin-ms 20] [--out DIR]

Analyses an experiment (docs/formats/experiment-results.md), or every one whose *.plan.json is in a
folder or up to four folders below it. A plan's runs are found where "pagepath experiment PLAN" wrote
them: beside the plan, else in its default output folder (NAME/ beside the plan). For results written
elsewhere with experiment's --out, give that folder, or the plan in it.
A configuration is a protocol/transport (with its multipath scheduler, congestion controller and
tail loss probes), server model and priority scheme on one family of networks
(networks that differ only in the first path's bandwidth and RTT, the heatmaps' grid). Per
configuration and network: runs, how they ended, and the mean, median, p90 and sample sd of the
metric over ok runs that measured it. Each comparison pairs a candidate with a baseline by site and
grid point: percentage reduction, mean difference, sites equal or better within the margin, and
Wilcoxon signed-rank and one-way ANOVA p-values. Multipath configurations get the experimental
aggregation benefit where single-path runs over each of their paths exist.
Writes summary.md, analysis.json (docs/formats/analysis.md), runs.csv and per comparison
<id>-reduction.svg, <id>-equal-or-better.svg and <id>-cdf.svg.
  --metric M          load (default, or the plan's metric), dcl (DOMContentLoaded), graph (whole graph),
                      fcp (first contentful paint), lcp (largest contentful paint)
  --baseline SEL      the baseline configuration(s): key=value,... with keys protocol, transport,
                      scheduler, congestion, tailLossProbes (on|off), serverModel, priority,
                      family (e.g. protocol=h1,transport=tcp, congestion=bbr, or
                      "scheduler=ecf beta=1" with options sorted). Without it,
                      each family's two configurations are compared, the first in plan order as baseline
  --candidate SEL     what to compare with the baseline (repeatable; default: every other configuration)
  --margin-ms N       "equal or better" allows the candidate this much slower (default ${DEFAULT_MARGIN_MS})
  --out DIR           where to write (default <name>.analysis/ beside the runs file; for a folder,
                      DIR/<name>.analysis/)
`,
  paths: { options: ["out"], positionals: true },
  options: {
    metric: { type: "string" },
    baseline: { type: "string" },
    candidate: { type: "string", multiple: true },
    "margin-ms": { type: "string" },
    out: { type: "string" },
  },
  async run(values, positionals) {
    if (positionals.length !== 1) throw new UsageError("give one plan file (NAME.plan.json) or a folder of them");
    const metric = values.metric === undefined ? undefined : metricOption(String(values.metric));
    const options = { metric, baseline: values.baseline as string | undefined, candidates: (values.candidate as string[] | undefined) ?? [], marginMs: numberOption(values, "margin-ms", DEFAULT_MARGIN_MS, 0, 1e9) };
    const input = positionals[0]!;
    const folder = existsSync(input) && statSync(input).isDirectory();
    const plans = folder ? planFiles(input) : [input];
    // A source plan and the resolved plan experiment wrote beside its runs are one experiment.
    const analysed = new Set<string>();
    const outs = new Map<string, string>();
    let code = 0;
    for (const plan of plans) {
      try {
        if (!existsSync(plan)) throw new Error(`${plan}: no such file`);
        if (!plan.endsWith(PLAN_SUFFIX)) throw new Error(`${plan}: not an experiment plan (its name must end in ${PLAN_SUFFIX})`);
        readPlanFile(plan);
        const results = findExperimentResults(plan);
        if (analysed.has(results.runsFile)) continue;
        analysed.add(results.runsFile);
        const experiment = existsSync(results.runsFile) ? readExperiment(results.planFile) : null;
        if (!experiment || experiment.runs.length === 0) {
          process.stdout.write(`${plan}: no finished runs yet (${experiment ? `none in ${results.runsFile}` : `no ${results.runsFile}`}), nothing to analyze\n`);
          code = Math.max(code, 1);
          continue;
        }
        const analysis = analyzeExperiment(experiment, options);
        const name = planName(plan);
        const out = resolve(values.out === undefined ? join(results.dir, `${name}.analysis`) : folder ? join(String(values.out), `${name}.analysis`) : String(values.out));
        if (outs.has(out)) throw new Error(`${plan}: another experiment named ${name} (${outs.get(out)}) was analysed into ${out} already: analyze this one on its own, with its own --out`);
        outs.set(out, plan);
        const files = writeAnalysis(analysis, out);
        process.stdout.write(report(analysis, out, files));
      } catch (e) {
        process.stderr.write(`pagepath analyze: ${oneLine((e as Error).message)}\n`);
        code = 2;
      }
    }
    return code;
  },
};

function metricOption(raw: string): MetricName {
  const m = METRICS.find((x) => x === raw);
  if (!m) throw new UsageError(`--metric "${raw}": expected one of ${METRICS.join(", ")}`);
  return m;
}

/** The plans in dir and below it, found as `pagepath view` finds them. */
function planFiles(dir: string): string[] {
  const plans = findExperiments(dir).plans;
  if (plans.length === 0) throw new UsageError(`${dir}: no *${PLAN_SUFFIX} in it or up to four folders below`);
  return plans;
}

/**
 * A reader's error lists every bad line, one per line: the first names the file and says what it
 * is; the first problem follows on the same line and the rest are counted. Selector errors keep
 * their list of configurations, which is what the user needs to choose.
 */
function oneLine(message: string): string {
  const [head, ...rest] = message.split("\n");
  if (rest.length === 0 || rest[0]!.startsWith("the configurations")) return message;
  const file = head!.slice(0, head!.indexOf(": ") + 2);
  const first = file && rest[0]!.startsWith(file) ? rest[0]!.slice(file.length) : rest[0];
  return `${head} ${first}${rest.length > 1 ? ` (and ${rest.length - 1} more problem line${rest.length > 2 ? "s" : ""})` : ""}`;
}

/** Writes the analysis's files into outDir (made if missing) and returns their paths. */
export function writeAnalysis(a: ExperimentAnalysis, outDir: string): string[] {
  mkdirSync(outDir, { recursive: true });
  const files: [string, string][] = [
    [ANALYSIS_FILES.summary, summaryMarkdown(a)],
    [ANALYSIS_FILES.json, JSON.stringify(a, null, 1) + "\n"],
    [ANALYSIS_FILES.csv, runsCsv(a.rows)],
  ];
  for (const c of a.comparisons) {
    const names = comparisonPlotFiles(c.id);
    const heatmaps = comparisonHeatmaps(c, a.metric, a.marginMs);
    files.push([names.reduction, heatmaps.reduction], [names.equalOrBetter, heatmaps.equalOrBetter], [names.cdf, differenceCdfSvg(c, a)]);
  }
  return files.map(([name, text]) => {
    const path = join(outDir, name);
    writeFileSync(path, text);
    return path;
  });
}

/** More lines than this cannot be told apart (the palette has ten colours): coarser groups are drawn instead. */
const MAX_CDF_LINES = 10;

/** The per-site differences as CDFs: a line per grid point, else per bandwidth, else one for the family. */
export function differenceCdfSvg(c: Comparison, a: ExperimentAnalysis): string {
  const groupings: ((p: PointComparison) => string)[] = [(p) => gridPointLabel(p.point), (p) => `${bandwidthLabel(p.point)}, every RTT`, () => "every grid point"];
  const measured = c.points.filter((p) => p.differences.length > 0);
  const group = groupings.find((g) => new Set(measured.map(g)).size <= MAX_CDF_LINES)!;
  const series = new Map<string, number[]>();
  for (const p of measured) series.set(group(p), [...(series.get(group(p)) ?? []), ...p.differences.map((d) => d.differenceMs)]);
  const plot: CdfPlot = {
    title: `Per-site difference in mean ${METRIC_TITLES[a.metric]}: ${c.id}`,
    xLabel: "baseline − candidate (ms) per site; right of 0: the candidate is faster",
    series: [...series].map(([name, diffs]) => ({ name: `${name} (${diffs.length})`, points: cdf(diffs) })),
    reference: [
      { name: "no difference", value: 0 },
      { name: `margin: candidate ${a.marginMs} ms slower`, value: -a.marginMs },
    ],
  };
  return cdfSvg(plot);
}

function report(a: ExperimentAnalysis, out: string, files: string[]): string {
  const pct = (v: number | null) => (v === null ? "n/a" : `${v.toFixed(1)}%`);
  return [
    `${a.experiment}: ${a.runs.done} of ${a.runs.planned} runs (${a.runs.ok} ok), ${a.configurations.length} configurations, metric ${METRIC_TITLES[a.metric]}`,
    ...a.comparisons.map((c) => `  ${c.id}: ${c.overall.pairedSites} site × grid point pairs, reduction ${pct(c.overall.reductionPercent)}, ${pct(c.overall.equalOrBetterPercent)} equal or better`),
    ...(a.comparisons.length === 0 ? [`  no comparison: ${a.selection}`] : []),
    `  aggregation benefit: ${a.aggregationBenefit.note ?? `${a.aggregationBenefit.results.length} networks, ${a.aggregationBenefit.notApplicable.length} not applicable`}`,
    `wrote ${files.length} files to ${out}: ${files.map((f) => basename(f)).join(", ")}`,
    "",
  ].join("\n");
}
