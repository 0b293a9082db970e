import { statSync } from "node:fs";
import { basename } from "node:path";
import type { ServerResponse } from "node:http";
import {
  bandwidthLabel,
  cellOf,
  familyKey,
  familyLabel,
  gridPointOf,
  METRIC_TITLES,
  pathShares,
  PLAN_SUFFIX,
  planConfigurations,
  plannedRunCount,
  planKnobKeys,
  planSchedulerKeys,
  planStacks,
  readExperiment,
  runsFileFor,
  RUNS_SUFFIX,
  SELECTOR_KEYS,
  type Experiment,
  type ExperimentPlan,
} from "@pagepath/results";
import type { ExperimentData, ExperimentIndex, ExperimentRow, RunRow } from "./api.js";
import type { FileCache } from "./file-cache.js";
import { findExperiments } from "./find-experiments.js";
import { insideRoot, relativeUrlPath, resolveUnder } from "./safe-path.js";
import { sendError, sendJson } from "./static-files.js";

/** An experiment as the views need it; per-node timings are dropped so that big sweeps stay small in memory. */
export type LoadedExperiment = Omit<ExperimentData, "file">;

/** GET /api/experiments: every experiment under root; one that cannot be read is an error row. */
export async function experimentsApi(res: ServerResponse, root: string, cache: FileCache<LoadedExperiment>): Promise<void> {
  const found = findExperiments(root);
  const rows: ExperimentRow[] = [];
  for (const planPath of found.plans) {
    const file = relativeUrlPath(root, planPath);
    const name = basename(planPath, PLAN_SUFFIX);
    try {
      const x = await readCached(root, planPath, cache, loaded);
      const failed = x.runs.filter((r) => r.status === "failed").length;
      const p = x.plan;
      rows.push({ ok: true, file, name, description: p.description, client: p.client, sites: p.sites.length, networks: p.networks.length, planned: plannedRunCount(p), done: x.runs.length, failed, warnings: x.warnings.length });
    } catch (e) {
      rows.push({ ok: false, file, name, error: (e as Error).message });
    }
  }
  for (const runsPath of found.orphanRuns) {
    const name = basename(runsPath, RUNS_SUFFIX);
    rows.push({ ok: false, file: relativeUrlPath(root, runsPath), name, error: `${runsPath}: no plan ${name}${PLAN_SUFFIX} beside it, so its runs cannot be placed in a matrix` });
  }
  const index: ExperimentIndex = { dir: root, experiments: rows };
  sendJson(res, index);
}

/** GET /api/experiment?file=REL.plan.json: the plan, its runs (without per-node timings) and warnings. */
export async function experimentApi(res: ServerResponse, root: string, params: URLSearchParams, cache: FileCache<LoadedExperiment>): Promise<void> {
  const planPath = requestedPlan(res, root, params);
  if (planPath === null) return;
  const x = await readOrRefuse(res, root, planPath, cache, loaded);
  if (x === null) return;
  const data: ExperimentData = { file: relativeUrlPath(root, planPath), ...x };
  sendJson(res, data);
}

/** The plan file `?file=` names inside root, or null once the request has been refused. */
export function requestedPlan(res: ServerResponse, root: string, params: URLSearchParams): string | null {
  const file = params.get("file");
  if (!file || !file.endsWith(PLAN_SUFFIX)) {
    sendError(res, 400, `expected ?file=<path of a *${PLAN_SUFFIX} relative to the served directory>`);
    return null;
  }
  const planPath = resolveUnder(root, file);
  if (planPath === null) sendError(res, 403, `${file}: outside the served directory`);
  return planPath;
}

/** The experiment through `cache`, shaped; or null once the request has been answered with why it cannot be read. */
export async function readOrRefuse<T>(res: ServerResponse, root: string, planPath: string, cache: FileCache<T>, shape: (x: Experiment) => T): Promise<T | null> {
  try {
    return await readCached(root, planPath, cache, shape);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    const file = relativeUrlPath(root, planPath);
    sendError(res, err.code === "ENOENT" ? 404 : 422, err.code === "ENOENT" ? `${file}: no such file` : err.message);
    return null;
  }
}

/** Read again whenever the plan or the runs file changes: a sweep appends while the viewer is open. */
async function readCached<T>(root: string, planPath: string, cache: FileCache<T>, shape: (x: Experiment) => T): Promise<T> {
  const runsPath = runsFileFor(planPath);
  // The plan's folder is inside root, but a runs file there may be a link that leads out of it.
  if (!insideRoot(root, runsPath)) throw new Error(`${relativeUrlPath(root, runsPath)}: outside the served directory`);
  return cache.get(planPath, runsVersion(runsPath), async () => shape(readExperiment(planPath)));
}

function loaded(x: Experiment): LoadedExperiment {
  return {
    plan: x.plan,
    stacks: planStacks(x.plan).flatMap((s) =>
      planSchedulerKeys(x.plan, s.transport).flatMap((scheduler) =>
        planKnobKeys(x.plan, s.transport).map(([congestion, tailLossProbes]) => ({
          ...s,
          ...(scheduler === undefined ? {} : { scheduler }),
          ...(congestion === undefined ? {} : { congestion }),
          ...(tailLossProbes === undefined ? {} : { tailLossProbes }),
        })),
      ),
    ),
    runs: x.runs.map((r): RunRow => ({ ...cellOf(r), seed: r.seed, status: r.status, error: r.error, ...r.metrics, bytesDownShare: pathShares(r).map((p) => p.wireShare) })),
    warnings: x.warnings,
    places: x.plan.networks.map((n) => ({ network: n.name, familyKey: familyKey(n), family: familyLabel(n), point: gridPointOf(n), row: bandwidthLabel(gridPointOf(n)) })),
    analysisChoices: { configurations: configurationChoices(x.plan), metrics: METRIC_TITLES },
  };
}

/** Each configuration with a selector naming every key, so that it picks that configuration alone. */
function configurationChoices(plan: ExperimentPlan): { label: string; selector: string }[] {
  return planConfigurations(plan).map((c) => ({ label: c.label, selector: SELECTOR_KEYS.flatMap((k) => (c[k] === undefined ? [] : [`${k}=${c[k]}`])).join(",") }));
}

function runsVersion(path: string): string {
  try {
    const st = statSync(path);
    return `${st.mtimeMs} ${st.size}`;
  } catch {
    return "none";
  }
}
