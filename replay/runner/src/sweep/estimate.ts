import { dirname, resolve } from "node:path";
import { readGraphFile } from "@pagepath/graph-builder";
import { DEFAULT_RUN_TIMEOUT_MS, type CellKey, type ExperimentPlan, type NetworkConfig, type RunResult } from "@pagepath/results";

/**
 * What a run costs besides the page load: its worker's topology reconfigured, the replay servers
 * started and stopped, the counters read after a round trip. `pagepath bench experiment` measured
 * 145 ms on a 2-core machine; Chromium adds a browser start (not measured since topologies are kept).
 */
export const RUN_OVERHEAD_MS = { emulated: 200, chromium: 2000, simulated: 300 };
/** Round trips a page load spends on handshakes and dependency chains beyond its transfer time. */
const LATENCY_ROUNDS = 8;

export interface SweepEstimate {
  runs: number;
  workers: number;
  /** Mean milliseconds a run is expected to take, overhead included. */
  perRunMs: number;
  totalMs: number;
  /** Load times predicted as the mean measured ones of runs already done, when there are any. */
  calibratedBy: number;
}

/**
 * A rough duration for running `cells`: per run, the overhead, the page as recorded on loopback (its
 * computation and server delays), its bytes at path 0's rate and a few round trips, at most the
 * timeout. Runs already in the runs file scale the load-time part to what was measured.
 */
export function estimateSweep(plan: ExperimentPlan, planFile: string, cells: CellKey[], workers: number, done: RunResult[]): SweepEstimate {
  const pages = new Map(plan.sites.map((s) => [s.name, pageCost(resolve(dirname(planFile), s.graph))]));
  const networks = new Map(plan.networks.map((n) => [n.name, n]));
  const timeout = plan.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS;
  const predict = (site: string, network: string) => Math.min(timeout, loadGuessMs(pages.get(site)!, networks.get(network)!));
  const measured = done.filter((r) => r.status === "ok" && r.metrics.loadMs !== null && pages.has(r.site.name) && networks.has(r.configuration.network.name));
  const predictedDone = measured.reduce((sum, r) => sum + predict(r.site.name, r.configuration.network.name), 0);
  const scale = measured.length > 0 && predictedDone > 0 ? measured.reduce((sum, r) => sum + r.metrics.loadMs!, 0) / predictedDone : 1;
  // A simulated load takes no real time of its own: its cost is the simulator's work, in the overhead.
  const loadMs = plan.client === "simulated" ? 0 : cells.reduce((sum, c) => sum + Math.min(timeout, scale * predict(c.site, c.network)), 0);
  const totalRunMs = loadMs + cells.length * RUN_OVERHEAD_MS[plan.client];
  const lanes = Math.max(1, Math.min(workers, cells.length));
  return { runs: cells.length, workers: lanes, perRunMs: cells.length ? totalRunMs / cells.length : 0, totalMs: totalRunMs / lanes, calibratedBy: measured.length };
}

interface PageCost {
  bytes: number;
  recordedLoadMs: number;
}

function pageCost(graphFile: string): PageCost {
  const graph = readGraphFile(graphFile);
  const seen = new Set<string>();
  let bytes = 0;
  for (const n of graph.nodes) {
    if (!n.resource || n.excluded !== null || seen.has(n.resource.url)) continue;
    seen.add(n.resource.url);
    bytes += n.resource.transferSize;
  }
  return { bytes, recordedLoadMs: graph.recorded.load ?? 0 };
}

function loadGuessMs(page: PageCost, network: NetworkConfig): number {
  const path = network.paths[0]!;
  const transferMs = path.downMbps ? (page.bytes * 8) / (path.downMbps * 1000) : 0;
  return page.recordedLoadMs + transferMs + LATENCY_ROUNDS * path.rttMs;
}

/** "2 h 05 min", "14 min", "40 s". */
export function formatDuration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s} s`;
  const m = Math.round(s / 60);
  return m < 60 ? `${m} min` : `${Math.floor(m / 60)} h ${String(m % 60).padStart(2, "0")} min`;
}

/** "90m", "2h", "1h30m", "3600s" or a bare number of minutes, in ms; null when unreadable. */
export function parseDuration(text: string): number | null {
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)\s*(h|m|min|s)?/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join("") !== text.replace(/\s+/g, "")) return null;
  const unit = { h: 3_600_000, m: 60_000, min: 60_000, s: 1000 } as const;
  return parts.reduce((sum, p) => sum + Number(p[1]) * unit[(p[2] ?? "m") as keyof typeof unit], 0);
}
