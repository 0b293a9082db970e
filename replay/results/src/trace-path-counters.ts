/**
 * Per-path counter tracks of a trace: on each path, the response bytes the servers had sent so far, as
 * requests[].paths measured them. Each entry counts whole at its lastMs (when its last byte on that
 * path left the server) and not before: the entry says how many bytes and between which moments, not
 * how they spread between them, so the counter steps where a measurement ends rather than guess a slope.
 */
import type { RunResult } from "./run-result.js";
import type { TraceEvent } from "./trace-events.js";

export function pathByteCounters(run: RunResult, pid: number, us: (ms: number) => number): TraceEvent[] {
  const sent = new Map<number, Map<number, number>>();
  for (const q of run.requests ?? []) {
    for (const p of q.paths ?? []) {
      const steps = sent.get(p.path) ?? new Map<number, number>();
      steps.set(p.lastMs, (steps.get(p.lastMs) ?? 0) + p.bytes);
      sent.set(p.path, steps);
    }
  }
  return [...sent.entries()]
    .sort(([a], [b]) => a - b)
    .flatMap(([path, steps]) => {
      const name = `path ${path} response bytes sent`;
      let total = 0;
      // Nothing is sent before the run starts, so each track starts from 0 there.
      const samples = [[0, 0], ...[...steps.entries()].sort(([a], [b]) => a - b).map(([ms, bytes]) => [ms, (total += bytes)])];
      return samples.map(([ms, bytes]): TraceEvent => ({ name, ph: "C", ts: us(ms!), pid, tid: 0, cat: "path bytes", args: { bytes } }));
    });
}
