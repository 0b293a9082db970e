/**
 * Everything `pagepath analyze` says about an experiment, as one object: per-configuration statistics,
 * the comparisons chosen, the aggregation benefit of multipath configurations and a row per run.
 * Pure: reading the experiment and writing the files are the caller's.
 */
import { plannedRunCount } from "../experiment.js";
import type { Experiment } from "../read-experiment.js";
import type { Client, RunResult } from "../run-result.js";
import { aggregationBenefits, type AggregationBenefitReport } from "./aggregation-benefit.js";
import { compareConfigurations, comparisonName, type Comparison } from "./compare-configurations.js";
import { configurationSummaries, type ConfigurationSummary } from "./configuration-statistics.js";
import { configurationOfRun, planConfigurations } from "./configurations.js";
import type { MetricName } from "./metric.js";
import { runRows, type RunRow } from "./run-rows.js";
import { chooseComparisons } from "./selectors.js";

export const ANALYSIS_SCHEMA_VERSION = 1;
/** The thesis's margin for "equal or better" (seed 001 §6.3.2): differences from random drops between runs. */
export const DEFAULT_MARGIN_MS = 20;

export interface AnalysisOptions {
  /** The plan's `metric`, else load. */
  metric?: MetricName;
  /** A selector (`protocol=h1,transport=tcp`); without it, the two configurations of each family. */
  baseline?: string;
  candidates?: string[];
  marginMs?: number;
}

export interface ExperimentAnalysis {
  schemaVersion: typeof ANALYSIS_SCHEMA_VERSION;
  kind: "pagepath-analysis";
  experiment: string;
  description: string;
  client: Client;
  metric: MetricName;
  marginMs: number;
  runs: { planned: number; done: number; ok: number; failed: number; incomplete: number };
  /** How the comparisons were chosen. */
  selection: string;
  configurations: ConfigurationSummary[];
  comparisons: Comparison[];
  aggregationBenefit: AggregationBenefitReport;
  /** The experiment reader's warnings (an incomplete last line, reruns). */
  warnings: string[];
  rows: RunRow[];
}

/** Throws when the selectors fit no configuration or leave pairs ambiguous, listing the configurations. */
export function analyzeExperiment(x: Experiment, options: AnalysisOptions = {}): ExperimentAnalysis {
  const metric = options.metric ?? x.plan.metric ?? "load";
  const marginMs = options.marginMs ?? DEFAULT_MARGIN_MS;
  if (!(marginMs >= 0 && Number.isFinite(marginMs))) throw new RangeError(`the margin must be a number of ms at or above 0, not ${marginMs}`);
  const configs = planConfigurations(x.plan);
  const { pairs, note } = chooseComparisons(configs, options.baseline, options.candidates ?? []);
  const runsOf = new Map<string, RunResult[]>();
  for (const r of x.runs) {
    const label = configurationOfRun(r);
    if (!runsOf.has(label)) runsOf.set(label, []);
    runsOf.get(label)!.push(r);
  }
  const names = new Map<string, number>();
  const comparisons = pairs.map((pair): Comparison => {
    const name = comparisonName(pair);
    const seen = (names.get(name) ?? 0) + 1;
    names.set(name, seen);
    return { id: seen > 1 ? `${name}-${seen}` : name, ...compareConfigurations(x.plan, pair, runsOf, metric, marginMs) };
  });
  const count = (status: RunResult["status"]) => x.runs.filter((r) => r.status === status).length;
  return {
    schemaVersion: ANALYSIS_SCHEMA_VERSION,
    kind: "pagepath-analysis",
    experiment: x.plan.name,
    description: x.plan.description,
    client: x.plan.client,
    metric,
    marginMs,
    runs: { planned: plannedRunCount(x.plan), done: x.runs.length, ok: count("ok"), failed: count("failed"), incomplete: count("incomplete") },
    selection: note,
    configurations: configurationSummaries(x.plan, configs, runsOf, metric),
    comparisons,
    aggregationBenefit: aggregationBenefits(x.plan, configs, x.runs),
    warnings: x.warnings,
    rows: runRows(x),
  };
}
