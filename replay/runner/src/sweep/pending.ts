import { cellId, cellOf, planCells, PLAN_SUFFIX, readExperiment, RUNS_SUFFIX, type CellKey, type ExperimentPlan, type RunResult } from "@pagepath/results";

/**
 * The cells of a plan that have no line in its runs file yet, in plan order; with retryFailed also
 * those whose counting line failed. The runs file is read as the viewer reads it, beside its plan, so
 * a bad line stops the sweep instead of being run over.
 */
export function pendingCells(plan: ExperimentPlan, runsFile: string, retryFailed: boolean): CellKey[] {
  if (!runsFile.endsWith(RUNS_SUFFIX)) throw new Error(`${runsFile}: a runs file's name must end in ${RUNS_SUFFIX}`);
  return owedCells(plan, readExperiment(runsFile.slice(0, -RUNS_SUFFIX.length) + PLAN_SUFFIX, { light: true }).runs, retryFailed);
}

/** pendingCells over the runs that count, for a caller that has read them already. */
export function owedCells(plan: ExperimentPlan, runs: readonly RunResult[], retryFailed: boolean): CellKey[] {
  const done = new Set(runs.filter((r) => !(retryFailed && r.status === "failed")).map((r) => cellId(cellOf(r))));
  return planCells(plan).filter((c) => !done.has(cellId(c)));
}
