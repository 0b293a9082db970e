/**
 * How a run's bytes split over its network paths, the figure that shows a multipath scheduler's
 * choices beside the load time. Two measures, kept apart because they count different things: bytes on
 * the wire per path (run.paths, IP packets both ways) and response bytes the servers sent per path
 * (the sum of requests[].paths, where the servers recorded it).
 */
import type { RunResult, SchedulerChoice } from "./run-result.js";

export interface PathShare {
  path: number;
  /** run.paths[].bytesDown: IP bytes server to client; null when not measured. */
  wireBytesDown: number | null;
  /** Its share of all paths' bytesDown, 0..1; null when any path's is unknown or all are 0. */
  wireShare: number | null;
  /** Sum of requests[].paths bytes on this path; null when no request recorded bytes per path. */
  responseBytes: number | null;
  /** Its share of all paths' response bytes, 0..1; null with responseBytes or when all are 0. */
  responseShare: number | null;
}

/** One entry per network path, in path order. */
export function pathShares(run: RunResult): PathShare[] {
  const wire = run.configuration.network.paths.map((_, i) => run.paths.find((p) => p.path === i)?.bytesDown ?? null);
  const measured = (run.requests ?? []).filter((q) => q.paths);
  const response = wire.map((_, i) => (measured.length === 0 ? null : measured.reduce((sum, q) => sum + (q.paths!.find((p) => p.path === i)?.bytes ?? 0), 0)));
  const wireShares = shares(wire);
  const responseShares = shares(response);
  return wire.map((w, i) => ({ path: i, wireBytesDown: w, wireShare: wireShares[i]!, responseBytes: response[i]!, responseShare: responseShares[i]! }));
}

function shares(values: (number | null)[]): (number | null)[] {
  if (values.some((v) => v === null)) return values.map(() => null);
  const total = values.reduce<number>((s, v) => s + v!, 0);
  return values.map((v) => (total === 0 ? null : v! / total));
}

/** "ecf beta=1 k=2", "lowest-rtt"; null when the run made no scheduler choice or predates the field. */
export function schedulerLabel(s: SchedulerChoice | null | undefined): string | null {
  if (!s) return null;
  const options = Object.entries(s.options).map(([k, v]) => `${k}=${v}`);
  return [s.name, ...options].join(" ");
}
