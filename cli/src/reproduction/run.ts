import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { describeCell, pendingCells, prepareExperiment, runLocalSweep, type PreparedExperiment } from "@pagepath/runner";
import { Progress } from "../progress.js";
import { reproductionPlans, type ReproducedExperiment, type ReproductionOptions } from "./plans.js";

export interface ReproductionRun {
  /** The corpus: its graphs/ and recordings/. */
  data: string;
  /** Only these sites; every graph of the corpus when absent. */
  sites?: string[];
  runs: number;
  grid: ReproductionOptions["grid"];
  /** Plans and results (runs files, logs): large, not committed. */
  work: string;
  workers: number;
}

/**
 * Writes the three plans into WORK/plans and runs whatever of them is not done yet, one experiment
 * after another, resuming as `pagepath experiment` does. Returns each experiment, prepared.
 */
export async function runReproduction(r: ReproductionRun): Promise<{ experiment: ReproducedExperiment; prepared: PreparedExperiment }[]> {
  const graphs = join(resolve(r.data), "graphs");
  if (!existsSync(graphs)) throw new Error(`--data ${r.data}: no graphs/ folder; build the corpus first (pagepath corpus build --data ${r.data})`);
  const all = readdirSync(graphs).filter((f) => f.endsWith(".json")).map((f) => f.slice(0, -5)).sort();
  const names = r.sites ?? all;
  const unknown = names.filter((s) => !all.includes(s));
  if (unknown.length > 0) throw new Error(`--sites: ${unknown.join(", ")} not in ${graphs}`);
  const plansDir = join(resolve(r.work), "plans");
  mkdirSync(plansDir, { recursive: true });
  const sites = names.map((name) => ({ name, graph: relative(plansDir, join(graphs, `${name}.json`)) }));
  const experiments = reproductionPlans({ sites, runs: r.runs, grid: r.grid });
  const prepared = experiments.map((experiment) => {
    const file = join(plansDir, `${experiment.plan.name}.plan.json`);
    writeFileSync(file, JSON.stringify(experiment.plan, null, 2) + "\n");
    return { experiment, prepared: prepareExperiment(file, join(resolve(r.work), "results", experiment.plan.name)) };
  });
  for (const { prepared: x } of prepared) {
    const cells = pendingCells(x.plan, x.runsFile, false);
    if (cells.length === 0) continue;
    const progress = new Progress(cells.length, x.plan.name);
    await runLocalSweep(
      { plan: x.plan, planFile: x.planFile, runsFile: x.runsFile, cells, workers: r.workers },
      {
        started: (cell, running) => {
          progress.running(running);
          progress.working(describeCell(cell));
        },
        finished: (cell, result, running) => {
          progress.running(running);
          progress.finished(describeCell(cell), result.status !== "failed", result.status === "failed" ? (result.error ?? "").split("\n")[0]! : `load ${result.metrics.loadMs?.toFixed(0)} ms`);
        },
      },
    );
    progress.end();
  }
  return prepared;
}
