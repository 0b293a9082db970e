import { readResultsState, writeResultsState, type ResultsState } from "./results-state.js";

/** The viewer's state lives in the URL hash, so a reload or a shared link restores it. */
export type View = "index" | "graph" | "timeline" | "results" | "compare";
/** How the timeline groups fetches into lanes. */
export type Lanes = "origin" | "connection" | "frame";
export const LANE_CHOICES: readonly Lanes[] = ["origin", "connection", "frame"];

export interface ViewState {
  view: View;
  /** Graph file, relative to the served directory. */
  site: string | null;
  /** The compare view's graph B; `site` is its graph A. */
  other: string | null;
  node: string | null;
  rankdir: "LR" | "TB";
  lanes: Lanes;
  /** The timeline's replayed run and the run it is compared with (keys from /api/runs). */
  run: string | null;
  vs: string | null;
  /** Compared runs: a node whose start or end moved by more than this many ms is marked changed. */
  threshold: number;
  results: ResultsState;
}

export const DEFAULT_THRESHOLD_MS = 50;

export function readState(hash = location.hash): ViewState {
  const p = new URLSearchParams(hash.replace(/^#/, ""));
  const view = p.get("view");
  return {
    view: view === "graph" || view === "timeline" || view === "results" || view === "compare" ? view : "index",
    site: p.get("site"),
    other: p.get("other"),
    node: p.get("node"),
    rankdir: p.get("rankdir") === "TB" ? "TB" : "LR",
    lanes: LANE_CHOICES.find((l) => l === p.get("lanes")) ?? "origin",
    run: p.get("run"),
    vs: p.get("vs"),
    threshold: Number(p.get("threshold") ?? NaN) >= 0 ? Number(p.get("threshold")) : DEFAULT_THRESHOLD_MS,
    results: readResultsState(p),
  };
}

export function stateHash(s: ViewState): string {
  const p = new URLSearchParams({ view: s.view });
  if (s.site) p.set("site", s.site);
  // Only the compare view reads it; other views' links stay as they were.
  if (s.other && s.view === "compare") p.set("other", s.other);
  if (s.node) p.set("node", s.node);
  if (s.rankdir !== "LR") p.set("rankdir", s.rankdir);
  if (s.lanes !== "origin") p.set("lanes", s.lanes);
  if (s.run) p.set("run", s.run);
  if (s.vs) p.set("vs", s.vs);
  if (s.threshold !== DEFAULT_THRESHOLD_MS) p.set("threshold", String(s.threshold));
  writeResultsState(s.results, p);
  return "#" + p.toString();
}

export function go(change: Partial<ViewState>): void {
  location.hash = stateHash({ ...readState(), ...change });
}
