/** Which completion time an analysis measures, and which runs have it. */
import type { Metrics, RunResult } from "../run-result.js";

/** The names the command line uses; a plan's `metric` is one of the first three (what a run waits for). */
export const METRICS = ["load", "dcl", "graph", "fcp", "lcp"] as const;
export type MetricName = (typeof METRICS)[number];

/** The fields of Metrics that hold a time (the others say why one is missing, or what was painted). */
type TimeField = { [K in keyof Metrics]-?: Exclude<Metrics[K], undefined> extends number | null ? K : never }[keyof Metrics];

export const METRIC_FIELDS: Record<MetricName, TimeField> = {
  load: "loadMs", dcl: "domContentLoadedMs", graph: "graphCompleteMs", fcp: "firstContentfulPaintMs", lcp: "largestContentfulPaintMs",
};

export const METRIC_TITLES: Record<MetricName, string> = {
  load: "load time", dcl: "DOMContentLoaded time", graph: "graph completion time", fcp: "first contentful paint", lcp: "largest contentful paint",
};

/** The run's value of the metric if it counts: only ok runs that measured it, as in the viewer. Results made before the paint metrics have none. */
export function measuredValue(run: RunResult, metric: MetricName): number | null {
  return run.status === "ok" ? run.metrics[METRIC_FIELDS[metric]] ?? null : null;
}
