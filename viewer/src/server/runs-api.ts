import { dirname, resolve } from "node:path";
import type { ServerResponse } from "node:http";
import { cellOf, readExperiment, runsFileFor, type RunResult } from "@pagepath/results";
import type { GraphRuns, ReplayedRun } from "./api.js";
import { fileSha256 } from "./file-sha.js";
import { nodePaths, pathUse } from "./path-use.js";
import { nodePhases } from "./node-phases.js";
import { findExperiments } from "./find-experiments.js";
import type { RunFile } from "./run-files.js";
import { insideRoot, relativeUrlPath } from "./safe-path.js";
import { sendError, sendJson } from "./static-files.js";

/**
 * GET /api/runs?file=REL: every run in the served directory that replayed the graph file REL, with
 * its node timings: the experiments' runs and the run result files of their own. A run matches by
 * the graph path it names (relative to the file holding it) or, for a graph that was moved or
 * copied, by the SHA-256 of the graph's bytes.
 */
export async function runsApi(res: ServerResponse, root: string, params: URLSearchParams, graphFile: (rel: string) => Promise<string | null>, runFiles: () => Promise<RunFile[]>): Promise<void> {
  const file = params.get("file");
  if (!file) return sendError(res, 400, "expected ?file=<path of a graph relative to the served directory>");
  const graphPath = await graphFile(file);
  if (graphPath === null) return sendError(res, 403, `${file}: outside the served directory`);
  let sha: string;
  try {
    sha = fileSha256(graphPath);
  } catch {
    return sendError(res, 404, `${file}: no such file`);
  }
  const out: GraphRuns = { file: relativeUrlPath(root, graphPath), runs: [], problems: [] };
  const matches = (r: RunResult, holder: string) => resolve(dirname(holder), r.site.graph) === graphPath || r.site.graphSha256 === sha;
  for (const planPath of findExperiments(root).plans) {
    const experiment = relativeUrlPath(root, planPath);
    const runsPath = runsFileFor(planPath);
    try {
      // The plan's folder is inside root, but a runs file there may be a link that leads out of it.
      if (!insideRoot(root, runsPath)) throw new Error(`${relativeUrlPath(root, runsPath)}: outside the served directory`);
      for (const r of readExperiment(planPath).runs) {
        if (matches(r, runsPath)) out.runs.push(replayed(experiment, null, r, r.site.graphSha256 === sha));
      }
    } catch (e) {
      out.problems.push((e as Error).message);
    }
  }
  for (const f of await runFiles()) {
    if (!("run" in f)) out.problems.push(f.error);
    else if (matches(f.run, f.path)) out.runs.push(replayed(null, relativeUrlPath(root, f.path), f.run, f.run.site.graphSha256 === sha));
  }
  sendJson(res, out);
}

/** A run as the timeline takes it, keyed by where it is (or by `runFile`, a name of its own). */
export function replayed(experiment: string | null, runFile: string | null, r: RunResult, sameBytes: boolean): ReplayedRun {
  const cell = cellOf(r);
  // The scheduler only where there is one, so that keys of single-path runs (kept in links) stay as they were.
  const scheduler = cell.scheduler === undefined ? "" : ` ${cell.scheduler}`;
  const key = runFile ?? `${experiment}:${cell.site}/${cell.network}/${cell.protocol}-${cell.transport}${scheduler}/${cell.serverModel}/${cell.priority}/${cell.run}`;
  const { client, status, error, metrics, nodeTimings, connections, paths, warnings } = r;
  return { key, experiment, runFile, cell, sameBytes, client, status, error, metrics, nodeTimings, connections, paths, warnings, pathUse: pathUse(r), nodePaths: nodePaths(r), nodePhases: nodePhases(r) };
}
