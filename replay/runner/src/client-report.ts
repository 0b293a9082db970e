import type { ConnectionRecord, Metrics, NodeTiming, RequestRecord, RunResult } from "@pagepath/results";

/** What a client measured: the part of a run result it can fill (pagepath-browser prints one). */
export interface ClientReport {
  status: RunResult["status"];
  error: string | null;
  startedAt: string;
  metrics: Metrics;
  nodeTimings: NodeTiming[] | null;
  connections: ConnectionRecord[];
  requests: RequestRecord[] | null;
  warnings: string[];
  versions: Record<string, string>;
}
