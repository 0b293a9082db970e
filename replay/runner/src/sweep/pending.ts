import { cellId, cellOf, planCells, PLAN_SUFFIX, readExperiment, RUNS_SUFFIX, type CellKey, type ExperimentPlan, type RunResult } from "@pagepath/results";

/**
 * The cells of a plan that have no line in its runs file yet, in plan order (a simulated plan's a
 * site at a time within each run); with retryFailed also those whose counting line failed. The runs
 * file is read as the viewer reads it, beside its plan, so a bad line stops the sweep instead of
 * being run over.
 */
export function pendingCells(plan: ExperimentPlan, runsFile: string, retryFailed: boolean): CellKey[] {
  if (!runsFile.endsWith(RUNS_SUFFIX)) throw new Error(`${runsFile}: a runs file's name must end in ${RUNS_SUFFIX}`);
  return owedCells(plan, readExperiment(runsFile.slice(0, -RUNS_SUFFIX.length) + PLAN_SUFFIX, { light: true }).runs, retryFailed);
}

/** pendingCells over the runs that count, for a caller that has read them already. */
export function owedCells(plan: ExperimentPlan, runs: readonly RunResult[], retryFailed: boolean): CellKey[] {
  const done = new Set(runs.filter((r) => !(retryFailed && r.status === "failed")).map((r) => cellId(cellOf(r))));
  const owed = planCells(plan).filter((c) => !done.has(cellId(c)));
  return plan.client === "simulated" ? bySiteWithinRun(plan, owed) : owed;
}

/**
 * A simulated sweep's cells a site at a time within each run: a batch simulator keeps the few
 * pages it read last (replay/sim/src/kept.rs), and plan order (every site at each network in
 * turn) made it read, check and parse a recording again for nearly every load of a sweep over
 * more sites than it keeps, 11% of the thesis grid's time (measured on 46 sites). A real replay's
 * cells keep plan order.
 */
function bySiteWithinRun(plan: ExperimentPlan, cells: CellKey[]): CellKey[] {
  const site = new Map(plan.sites.map((s, i) => [s.name, i]));
  // Array.prototype.sort is stable: within a run and site, cells keep plan order.
  return cells.slice().sort((a, b) => a.run - b.run || site.get(a.site)! - site.get(b.site)!);
}
