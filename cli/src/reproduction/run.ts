import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { pendingCells, prepareExperiment, requireRoot, runLocalSweep, type PreparedExperiment } from "@pagepath/runner";
import type { SchedulerChoice, TcpProfile } from "@pagepath/results";
import { corpusSites } from "../corpus-sites.js";
import { Progress } from "../progress.js";
import { sweepProgress } from "../sweep-progress.js";
import { reproductionPlans, type ReproducedExperiment, type ReproductionOptions } from "./plans.js";

export interface ReproductionRun {
  client: ReproductionOptions["client"];
  /** The corpus: its graphs/ and recordings/. */
  data: string;
  /** Only these sites; every graph of the corpus when absent. */
  sites?: string[];
  runs: number;
  grid: ReproductionOptions["grid"];
  mptcpScheduler?: SchedulerChoice;
  congestion?: string;
  tailLossProbes?: boolean;
  tcpProfile?: TcpProfile;
  clockTickUs?: number;
  /** Plans and results (runs files, logs): large, not committed. */
  work: string;
  workers: number;
  /** Only the experiments of these names; all three when absent. */
  only?: string[];
}

/**
 * Writes the three plans into WORK/plans and runs whatever of them is not done yet, one experiment
 * after another, resuming as `pagepath experiment` does. Returns each experiment, prepared. With the
 * emulated client and without root it refuses (requireRoot) before writing anything: runs that
 * cannot start would be recorded as failed.
 */
export async function runReproduction(r: ReproductionRun): Promise<{ experiment: ReproducedExperiment; prepared: PreparedExperiment }[]> {
  const corpus = corpusSites(r.data, r.sites);
  // The simulator needs no root: no namespaces, no sockets.
  if (r.client === "emulated") requireRoot();
  const graphs = resolve(corpus.graphsDir);
  const names = corpus.sites;
  const plansDir = join(resolve(r.work), "plans");
  mkdirSync(plansDir, { recursive: true });
  const sites = names.map((name) => ({ name, graph: relative(plansDir, join(graphs, `${name}.json`)) }));
  const experiments = reproductionPlans({ client: r.client, sites, runs: r.runs, grid: r.grid, mptcpScheduler: r.mptcpScheduler, congestion: r.congestion, tailLossProbes: r.tailLossProbes, tcpProfile: r.tcpProfile, clockTickUs: r.clockTickUs }).filter(
    (e) => !r.only || r.only.includes(e.plan.name),
  );
  const prepared = experiments.map((experiment) => {
    const results = join(resolve(r.work), "results", experiment.plan.name);
    keepFullRunsBegun(experiment, join(results, `${experiment.plan.name}.plan.json`));
    const file = join(plansDir, `${experiment.plan.name}.plan.json`);
    writeFileSync(file, JSON.stringify(experiment.plan, null, 2) + "\n");
    return { experiment, prepared: prepareExperiment(file, results) };
  });
  for (const { prepared: x } of prepared) await sweepPending(x, r.workers);
  return prepared;
}

/** Runs the cells of a prepared experiment that have no run yet, with progress; resumable. */
export async function sweepPending(x: PreparedExperiment, workers: number): Promise<void> {
  const cells = pendingCells(x.plan, x.runsFile, false);
  if (cells.length === 0) return;
  const progress = new Progress(cells.length, x.plan.name);
  await runLocalSweep({ plan: x.plan, planFile: x.planFile, runsFile: x.runsFile, cells, workers }, sweepProgress(progress));
  progress.end();
}

/**
 * A simulated reproduction begun before plans asked for summary runs kept its runs whole: it goes
 * on as it began (a plan that changed would be refused), so that nothing recorded is run again.
 */
function keepFullRunsBegun(experiment: ReproducedExperiment, begun: string): void {
  if (experiment.plan.runDetail === undefined || !existsSync(begun)) return;
  const before = JSON.parse(readFileSync(begun, "utf8")) as Record<string, unknown>;
  if (before.runDetail === undefined) delete experiment.plan.runDetail;
}
