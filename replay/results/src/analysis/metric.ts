/** Which completion time an analysis measures, and which runs have it. */
import type { Metrics, RunResult } from "../run-result.js";

/** The names plans and the command line use (a plan's `metric`). */
export const METRICS = ["load", "dcl", "graph"] as const;
export type MetricName = (typeof METRICS)[number];

export const METRIC_FIELDS: Record<MetricName, keyof Metrics> = { load: "loadMs", dcl: "domContentLoadedMs", graph: "graphCompleteMs" };

export const METRIC_TITLES: Record<MetricName, string> = { load: "load time", dcl: "DOMContentLoaded time", graph: "graph completion time" };

/** The run's value of the metric if it counts: only ok runs that measured it, as in the viewer. */
export function measuredValue(run: RunResult, metric: MetricName): number | null {
  return run.status === "ok" ? run.metrics[METRIC_FIELDS[metric]] : null;
}
