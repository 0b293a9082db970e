import type { RunResult } from "@pagepath/results";
import type { NodePhases } from "./api.js";

/**
 * What the timeline draws of a run's phases: one entry per node whose request recorded them. A node
 * fetched again (a retry) takes its last request's, the one whose end its bar shows.
 */
export function nodePhases(r: RunResult): NodePhases[] {
  const byNode = new Map<string, NodePhases>();
  for (const q of r.requests ?? []) if (q.nodeId !== null && q.phases) byNode.set(q.nodeId, { nodeId: q.nodeId, phases: q.phases });
  return [...byNode.values()];
}
