import { statSync } from "node:fs";
import { basename } from "node:path";
import type { ServerResponse } from "node:http";
import { cellOf, PLAN_SUFFIX, plannedRunCount, planStacks, readExperiment, runsFileFor, RUNS_SUFFIX } from "@pagepath/results";
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
      const x = await load(root, planPath, cache);
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
  const file = params.get("file");
  if (!file || !file.endsWith(PLAN_SUFFIX)) return sendError(res, 400, `expected ?file=<path of a *${PLAN_SUFFIX} relative to the served directory>`);
  const planPath = resolveUnder(root, file);
  if (planPath === null) return sendError(res, 403, `${file}: outside the served directory`);
  let x: LoadedExperiment;
  try {
    x = await load(root, planPath, cache);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    return sendError(res, err.code === "ENOENT" ? 404 : 422, err.code === "ENOENT" ? `${file}: no such file` : err.message);
  }
  const data: ExperimentData = { file: relativeUrlPath(root, planPath), ...x };
  sendJson(res, data);
}

/** Read again whenever the plan or the runs file changes: a sweep appends while the viewer is open. */
async function load(root: string, planPath: string, cache: FileCache<LoadedExperiment>): Promise<LoadedExperiment> {
  const runsPath = runsFileFor(planPath);
  // The plan's folder is inside root, but a runs file there may be a link that leads out of it.
  if (!insideRoot(root, runsPath)) throw new Error(`${relativeUrlPath(root, runsPath)}: outside the served directory`);
  return cache.get(planPath, runsVersion(runsPath), async () => {
    const x = readExperiment(planPath);
    return { plan: x.plan, stacks: planStacks(x.plan), runs: x.runs.map((r): RunRow => ({ ...cellOf(r), seed: r.seed, status: r.status, error: r.error, ...r.metrics })), warnings: x.warnings };
  });
}

function runsVersion(path: string): string {
  try {
    const st = statSync(path);
    return `${st.mtimeMs} ${st.size}`;
  } catch {
    return "none";
  }
}
