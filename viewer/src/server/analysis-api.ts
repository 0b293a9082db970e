import type { ServerResponse } from "node:http";
import { analyzeExperiment, bandwidthLabel, METRICS, type Experiment, type ExperimentAnalysis, type MetricName } from "@pagepath/results";
import type { AnalysisData } from "./api.js";
import type { FileCache } from "./file-cache.js";
import { readOrRefuse, requestedPlan } from "./results-api.js";
import { relativeUrlPath } from "./safe-path.js";
import { sendError, sendJson } from "./static-files.js";

/**
 * GET /api/analysis?file=REL.plan.json[&baseline=SEL][&candidate=SEL]…[&metric=load|dcl|graph][&margin=MS]:
 * what `pagepath analyze` makes of the experiment with those options, without the per-run rows, which
 * can run to millions. Options the analysis refuses (a selector that picks nothing) are a 400 with its message.
 */
export async function analysisApi(res: ServerResponse, root: string, params: URLSearchParams, cache: FileCache<Experiment>): Promise<void> {
  const planPath = requestedPlan(res, root, params);
  if (planPath === null) return;
  const metric = params.get("metric");
  if (metric !== null && !METRICS.includes(metric as MetricName)) return sendError(res, 400, `metric "${metric}": expected one of ${METRICS.join(", ")}`);
  const margin = params.get("margin");
  const x = await readOrRefuse(res, root, planPath, cache, withoutTimings);
  if (x === null) return;
  let analysis: ExperimentAnalysis;
  try {
    analysis = analyzeExperiment(x, {
      metric: (metric as MetricName | null) ?? undefined,
      baseline: params.get("baseline") ?? undefined,
      candidates: params.getAll("candidate"),
      // An empty margin is no number, not 0.
      marginMs: margin === null ? undefined : margin.trim() === "" ? NaN : Number(margin),
    });
  } catch (e) {
    return sendError(res, 400, (e as Error).message);
  }
  const { rows, comparisons, ...rest } = analysis;
  const data: AnalysisData = {
    file: relativeUrlPath(root, planPath),
    ...rest,
    comparisons: comparisons.map((c) => ({ ...c, points: c.points.map((p) => ({ ...p, row: bandwidthLabel(p.point) })) })),
  };
  sendJson(res, data);
}

/** The analysis reads neither per-node timings nor connections, the bulk of a run: the cache keeps them out. */
function withoutTimings(x: Experiment): Experiment {
  return { ...x, runs: x.runs.map((r) => ({ ...r, nodeTimings: null, connections: [] })) };
}
