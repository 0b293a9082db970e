import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { ServerResponse } from "node:http";
import { cellOf, readExperiment, runsFileFor, type RunResult } from "@pagepath/results";
import type { GraphRuns, ReplayedRun } from "./api.js";
import { findExperiments } from "./find-experiments.js";
import { insideRoot, relativeUrlPath, resolveUnder } from "./safe-path.js";
import { sendError, sendJson } from "./static-files.js";

/**
 * GET /api/runs?file=REL: every run in the served directory's experiments that replayed the graph
 * file REL, with its node timings. A run matches by the graph path it names (relative to its runs
 * file) or, for a graph that was moved or copied, by the SHA-256 of the graph's bytes.
 */
export async function runsApi(res: ServerResponse, root: string, params: URLSearchParams): Promise<void> {
  const file = params.get("file");
  if (!file) return sendError(res, 400, "expected ?file=<path of a graph relative to the served directory>");
  const graphPath = resolveUnder(root, file);
  if (graphPath === null) return sendError(res, 403, `${file}: outside the served directory`);
  let sha: string;
  try {
    sha = createHash("sha256").update(readFileSync(graphPath)).digest("hex");
  } catch {
    return sendError(res, 404, `${file}: no such file`);
  }
  const out: GraphRuns = { file: relativeUrlPath(root, graphPath), runs: [], problems: [] };
  for (const planPath of findExperiments(root).plans) {
    const experiment = relativeUrlPath(root, planPath);
    const runsPath = runsFileFor(planPath);
    try {
      // The plan's folder is inside root, but a runs file there may be a link that leads out of it.
      if (!insideRoot(root, runsPath)) throw new Error(`${relativeUrlPath(root, runsPath)}: outside the served directory`);
      for (const r of readExperiment(planPath).runs) {
        const samePath = resolve(dirname(runsPath), r.site.graph) === graphPath;
        if (samePath || r.site.graphSha256 === sha) out.runs.push(replayed(experiment, r, r.site.graphSha256 === sha));
      }
    } catch (e) {
      out.problems.push((e as Error).message);
    }
  }
  sendJson(res, out);
}

function replayed(experiment: string, r: RunResult, sameBytes: boolean): ReplayedRun {
  const cell = cellOf(r);
  const key = `${experiment}:${cell.site}/${cell.network}/${cell.protocol}-${cell.transport}/${cell.serverModel}/${cell.priority}/${cell.run}`;
  const { status, error, metrics, nodeTimings, connections, paths, warnings } = r;
  return { key, experiment, cell, sameBytes, status, error, metrics, nodeTimings, connections, paths, warnings };
}
