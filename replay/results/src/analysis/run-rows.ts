/** One flat row per run that counts, for spreadsheets and other tools: the analysis's runs.csv. */
import type { Experiment } from "../read-experiment.js";
import type { RunResult } from "../run-result.js";
import { familyLabel } from "./network-family.js";
import { runSchedulerKey } from "../plan-schedulers.js";
import { hasTailLossProbes } from "../plan-transport-knobs.js";

export interface RunRow {
  experiment: string;
  site: string;
  network: string;
  family: string;
  path0DownMbps: number | null;
  path0UpMbps: number | null;
  path0RttMs: number;
  path0Loss: number | null;
  path0QueuePackets: number | null;
  paths: number;
  protocol: string;
  transport: string;
  /** CellKey's scheduler (a run from before runs recorded it: what it ran); null over tcp and quic. */
  scheduler: string | null;
  /** configuration.congestion; null for a run that predates the field (over TCP it ran the host's default). */
  congestion: string | null;
  /** configuration.tailLossProbes; null over QUIC, true (what ran) for a TCP run that predates the field. */
  tailLossProbes: boolean | null;
  connectionsPerOrigin: number | null;
  serverModel: string;
  priority: string;
  run: number;
  seed: number;
  status: RunResult["status"];
  domContentLoadedMs: number | null;
  loadMs: number | null;
  graphCompleteMs: number | null;
  /** null also for a run that predates the paint metrics. */
  firstContentfulPaintMs: number | null;
  largestContentfulPaintMs: number | null;
  /** Summed over the paths; null if any path's count is not measured. */
  bytesDown: number | null;
  error: string | null;
}

/** The CSV's columns, in order: RunRow's fields. */
export const RUN_ROW_COLUMNS: readonly (keyof RunRow)[] = [
  "experiment", "site", "network", "family", "path0DownMbps", "path0UpMbps", "path0RttMs", "path0Loss", "path0QueuePackets", "paths", "protocol", "transport", "scheduler", "congestion", "tailLossProbes",
  "connectionsPerOrigin", "serverModel", "priority", "run", "seed", "status", "domContentLoadedMs", "loadMs", "graphCompleteMs", "firstContentfulPaintMs", "largestContentfulPaintMs", "bytesDown", "error",
];

export function runRows(x: Experiment): RunRow[] {
  return x.runs.map((r) => {
    const c = r.configuration;
    const first = c.network.paths[0]!;
    return {
      experiment: x.plan.name,
      site: r.site.name,
      network: c.network.name,
      family: familyLabel(c.network),
      path0DownMbps: first.downMbps,
      path0UpMbps: first.upMbps,
      path0RttMs: first.rttMs,
      path0Loss: first.loss,
      path0QueuePackets: first.queue?.packets ?? null,
      paths: c.network.paths.length,
      protocol: c.protocol,
      transport: c.transport,
      scheduler: runSchedulerKey(c) ?? null,
      congestion: c.congestion ?? null,
      tailLossProbes: hasTailLossProbes(c.transport) ? c.tailLossProbes ?? true : null,
      connectionsPerOrigin: c.connectionsPerOrigin,
      serverModel: c.serverModel,
      priority: c.priority,
      run: r.run,
      seed: r.seed,
      status: r.status,
      domContentLoadedMs: r.metrics.domContentLoadedMs,
      loadMs: r.metrics.loadMs,
      graphCompleteMs: r.metrics.graphCompleteMs,
      firstContentfulPaintMs: r.metrics.firstContentfulPaintMs ?? null,
      largestContentfulPaintMs: r.metrics.largestContentfulPaintMs ?? null,
      bytesDown: r.paths.every((p) => p.bytesDown !== null) ? r.paths.reduce((s, p) => s + p.bytesDown!, 0) : null,
      error: r.error,
    };
  });
}

/** RFC 4180: CRLF line ends, a header line, fields with a comma, quote or line break quoted, quotes doubled; null is an empty field. */
export function runsCsv(rows: readonly RunRow[]): string {
  const field = (v: string | number | boolean | null) => {
    const s = v === null ? "" : String(v);
    return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
  };
  return [RUN_ROW_COLUMNS.join(","), ...rows.map((r) => RUN_ROW_COLUMNS.map((k) => field(r[k])).join(","))].map((line) => line + "\r\n").join("");
}
