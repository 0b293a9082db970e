/** The results view's part of the URL hash, so a chart and its choices can be linked to. */
export type ResultsTab = "runs" | "heatmap" | "cdf" | "analysis";
const TABS: readonly ResultsTab[] = ["runs", "heatmap", "cdf", "analysis"];

export interface ResultsState {
  /** The plan file, relative to the served directory; null shows the list of experiments. */
  experiment: string | null;
  tab: ResultsTab;
  /** Heatmap: the configuration and the network family shown (null: the first). */
  config: string | null;
  family: string | null;
  /** CDF: the two configurations compared, the network ("*": all of them) and how runs are compared. */
  a: string | null;
  b: string | null;
  net: string | null;
  scale: "diff" | "ratio";
  /** Analysis: selectors of the baseline and candidate, the metric and the margin in ms as typed (null: the analysis's defaults). */
  baseline: string | null;
  candidate: string | null;
  metric: string | null;
  margin: string | null;
}

const OPTIONAL = ["config", "family", "a", "b", "net", "baseline", "candidate", "metric", "margin"] as const;

export function readResultsState(p: URLSearchParams): ResultsState {
  const optional = Object.fromEntries(OPTIONAL.map((k) => [k, p.get(k)])) as Record<(typeof OPTIONAL)[number], string | null>;
  return {
    experiment: p.get("experiment"),
    tab: TABS.find((t) => t === p.get("tab")) ?? "runs",
    ...optional,
    scale: p.get("scale") === "ratio" ? "ratio" : "diff",
  };
}

export function writeResultsState(s: ResultsState, p: URLSearchParams): void {
  if (s.experiment) p.set("experiment", s.experiment);
  if (s.tab !== "runs") p.set("tab", s.tab);
  for (const k of OPTIONAL) {
    const v = s[k];
    if (v !== null) p.set(k, v);
  }
  if (s.scale !== "diff") p.set("scale", s.scale);
}
