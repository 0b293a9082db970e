import { pathShares, schedulerLabel, type RunResult } from "@pagepath/results";
import type { NodePaths, PathUse } from "./api.js";

export function pathUse(r: RunResult): PathUse {
  return { network: r.configuration.network.paths, scheduler: schedulerLabel(r.configuration.scheduler), shares: pathShares(r) };
}

/** Only what the timeline draws: a run's requests without a node, or without bytes per path, have no bar to colour. */
export function nodePaths(r: RunResult): NodePaths[] {
  return (r.requests ?? []).flatMap((q) => (q.nodeId !== null && q.paths ? [{ nodeId: q.nodeId, paths: q.paths }] : []));
}
