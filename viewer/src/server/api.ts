/** What the viewer's JSON API returns; the browser UI imports these types too. */
import type { CriticalPath } from "@pagepath/graph-builder";
import type { CellKey, Comparison, ExperimentAnalysis, ExperimentPlan, GridPoint, MetricName, PathConfig, PathShare, PointComparison, Protocol, RequestPathBytes, RequestPhases, RunResult, Transport } from "@pagepath/results";

export interface SiteSummary {
  /** Path of the graph file relative to the served directory, with "/" separators. */
  file: string;
  name: string;
  url: string;
  status: "complete" | "incomplete";
  mode: "full" | "network-only";
  nodes: number;
  edges: number;
  /** Fetches: resource nodes plus HTML documents (a document's first download chunk). */
  resources: number;
  /** Bytes on the wire of those fetches. */
  bytes: number;
  domains: number;
  criticalPath: { nodes: number; totalMs: number; breakdown: CriticalPath["breakdown"] };
  recorded: { domContentLoaded: number | null; load: number | null };
  /** The recording the graph came from, when it is inside the served directory. */
  recording: { dir: string; url: string; status: string; load: number | null; startedAt: string } | null;
}

export type SiteRow = { ok: true; site: SiteSummary } | { ok: false; file: string; name: string; error: string };

export interface SiteIndex {
  dir: string;
  sites: SiteRow[];
  /** The run result files (pagepath replay's) in the served directory. */
  runs: RunFileRow[];
}

/** A run result file as the index lists it. */
export interface StandaloneRun {
  /** The file, relative to the served directory: also the run's key in /api/runs. */
  file: string;
  site: string;
  client: RunResult["client"];
  cell: CellKey;
  status: RunResult["status"];
  error: string | null;
  startedAt: string;
  metrics: RunResult["metrics"];
  /** The graph it replayed, relative to the served directory; it may lie outside it ("../graphs/x.json"). */
  graph: string;
  /** Why the timeline cannot open that graph with this run, or null. */
  graphProblem: string | null;
  pathUse: PathUse;
}

/** How a run used its network paths, worked out on the server as the browser cannot import @pagepath/results. */
export interface PathUse {
  /** configuration.network.paths, path 0 first: what the legend names each path by. */
  network: PathConfig[];
  /** configuration.scheduler as "name key=value ..."; null when the run made no choice or predates the field. */
  scheduler: string | null;
  /** Each path's share of the bytes down on the wire and of the response bytes sent (pathShares). */
  shares: PathShare[];
}

/** The requests of a run that recorded their bytes per path, by the graph node they fetched. */
export interface NodePaths {
  nodeId: string;
  paths: RequestPathBytes[];
}

export type RunFileRow = { ok: true; run: StandaloneRun } | { ok: false; file: string; error: string };

export interface LayoutNode {
  id: string;
  /** Centre and size in layout points, y growing downwards. */
  x: number;
  y: number;
  width: number;
  height: number;
  color: string;
  shape: string;
}

export interface LayoutEdge {
  from: string;
  to: string;
  /** SVG path data of the spline dot routed, ending at the arrow tip. Edges dot did not route (big graphs) are absent. */
  path: string;
}

export interface LayoutCluster {
  /** Frame id of the graph's frame this box stands for. */
  frameId: string;
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
  fill: string;
}

export interface Layout {
  width: number;
  height: number;
  rankdir: "LR" | "TB";
  nodes: LayoutNode[];
  edges: LayoutEdge[];
  clusters: LayoutCluster[];
  /** Colour dot gave each node kind, so other views use the same palette. */
  kindColors: Record<string, string>;
  /**
   * What laid the graph out and how long it took, for the researcher to judge big graphs: dot with
   * its arguments, or, past dot's reach, pagepath's own layered layout, which routes no edge.
   */
  engine: { name: "dot" | "layered"; args: string[]; ms: number; routedEdges: "all" | "depth-tree" | "none" };
}

/** One experiment in the served directory, or why it cannot be shown. */
export type ExperimentRow =
  | { ok: true; file: string; name: string; description: string; client: string; sites: number; networks: number; planned: number; done: number; failed: number; warnings: number }
  | { ok: false; file: string; name: string; error: string };

export interface ExperimentIndex {
  dir: string;
  experiments: ExperimentRow[];
}

/** A run as the results views need it: its cell, seed, outcome and metrics (not its per-node timings). */
export type RunRow = CellKey &
  Pick<RunResult, "seed" | "status" | "error"> &
  RunResult["metrics"] & {
    /** Each path's share of the bytes down on the wire (PathShare.wireShare), path 0 first. */
    bytesDownShare: (number | null)[];
  };

export interface ExperimentData {
  /** The plan file, relative to the served directory. */
  file: string;
  plan: ExperimentPlan;
  /**
   * The protocol and transport pairs the plan runs (pairs that cannot work are not in its matrix),
   * a multipath pair once per scheduler of the plan's (CellKey's scheduler), and each pair once per
   * congestion controller and tail-loss-probe setting of the plan's factors (CellKey's).
   */
  stacks: { protocol: Protocol; transport: Transport; scheduler?: string; congestion?: string; tailLossProbes?: false }[];
  runs: RunRow[];
  warnings: string[];
  /** One per network of the plan, in plan order. */
  places: NetworkPlace[];
  /** What an analysis can be asked for: a selector that picks just the configuration, and the metrics with their titles. */
  analysisChoices: { configurations: { label: string; selector: string }[]; metrics: Record<MetricName, string> };
}

/**
 * Where a network sits in the heatmaps, as @pagepath/results places it: the browser cannot import
 * that package, so the server works it out and the UI keeps no copy of the rules.
 */
export interface NetworkPlace {
  network: string;
  /** Networks with the same familyKey share a heatmap. */
  familyKey: string;
  /** familyLabel: the family in a few words. */
  family: string;
  point: GridPoint;
  /** The heatmap row of the point: bandwidthLabel. */
  row: string;
}

/** GET /api/analysis: analyzeExperiment's result without its per-run rows, each grid point with its heatmap row. */
export type AnalysisData = Omit<ExperimentAnalysis, "rows" | "comparisons"> & { file: string; comparisons: AnalysedComparison[] };
export type AnalysedComparison = Omit<Comparison, "points"> & { points: AnalysedPoint[] };
export type AnalysedPoint = PointComparison & { row: string };

/** A run that replayed one graph, with what the timeline draws of it. */
export type ReplayedRun = Pick<RunResult, "client" | "status" | "error" | "metrics" | "nodeTimings" | "connections" | "paths" | "warnings"> & {
  /** Unique in the served directory (plan file and cell, or the run result file), so the URL can name the run. */
  key: string;
  /** The plan file, relative to the served directory; null for a run result file of its own. */
  experiment: string | null;
  /** The run result file (pagepath replay's), relative to the served directory; null for an experiment's run. */
  runFile: string | null;
  cell: CellKey;
  /** The run names the graph's current bytes; false when the graph was rebuilt after it or merely shares the path. */
  sameBytes: boolean;
  pathUse: PathUse;
  /** Requests with a graph node and their bytes per path; empty when none recorded them. */
  nodePaths: NodePaths[];
  /** Requests with a graph node and their phases, the last of a node's requests; empty when none recorded them. */
  nodePhases: NodePhases[];
};

export interface NodePhases {
  nodeId: string;
  phases: RequestPhases;
}

export interface GraphRuns {
  file: string;
  runs: ReplayedRun[];
  /** Experiments and run result files that could not be read, so the view can say runs may be missing. */
  problems: string[];
}
