import { transportKnobsLabel, type CellKey, type ExperimentPlan, type RunResult } from "@pagepath/results";
import { appendRun } from "./runs-file.js";
import { dropWorkerLogs, runCell } from "./run-cell.js";
import { releaseKeptTopologies } from "./kept-topology.js";
import { workerTagBase } from "../queue/worker-tags.js";
import { limitBatchSimulators, simulationsAtOnce } from "../batch-simulator.js";

export interface LocalSweep {
  plan: ExperimentPlan;
  planFile: string;
  runsFile: string;
  cells: CellKey[];
  /** Runs at once, each in a topology of its own; for a simulated plan, batch simulators (sweepLanes). */
  workers: number;
  /** A topology brought up and taken down for every run, as before topologies were kept (a benchmark's reference). */
  freshTopologies?: boolean;
}

export interface SweepEvents {
  started(cell: CellKey, running: number): void;
  finished(cell: CellKey, result: RunResult, running: number): void;
}

/**
 * Runs the cells with `workers` runs at a time, appending each result to the runs file the moment it
 * is in, so that a sweep stopped at any point resumes where it was. Resolves when every cell has run.
 */
export async function runLocalSweep(s: LocalSweep, on: SweepEvents): Promise<{ done: number; failed: number }> {
  let next = 0;
  let running = 0;
  let done = 0;
  let failed = 0;
  const lanes = sweepLanes(s.plan, s.workers);
  // A simulated plan's workers are batch processes, each sent its next run while it simulates one.
  if (s.plan.client === "simulated") limitBatchSimulators(s.workers);
  const tags = sweepTags(lanes);
  const worker = async (w: number) => {
    while (next < s.cells.length) {
      const cell = s.cells[next++]!;
      running++;
      on.started(cell, running);
      const result = await runCell({ plan: s.plan, planFile: s.planFile, cell, tag: tags[w]!, freshTopology: s.freshTopologies });
      appendRun(s.runsFile, result);
      running--;
      done++;
      if (result.status === "failed") failed++;
      on.finished(cell, result, running);
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, Math.min(lanes, s.cells.length)) }, (_, w) => worker(w)));
  } finally {
    await releaseKeptTopologies();
  }
  tags.forEach(dropWorkerLogs);
  return { done, failed };
}

/**
 * The cells a sweep of `workers` runs at once, each with a scratch folder (tag) of its own: as many
 * as workers, or for a simulated plan the runs that keep `workers` batch simulators busy.
 */
export function sweepLanes(plan: ExperimentPlan, workers: number): number {
  return plan.client === "simulated" ? simulationsAtOnce(workers) : workers;
}

/** A cell as people read it in a progress line. */
export function describeCell(c: CellKey): string {
  return `${c.site} ${c.network} ${c.protocol}/${c.transport}${c.scheduler === undefined ? "" : ` [${c.scheduler}]`}${transportKnobsLabel(c)} ${c.serverModel} ${c.priority} run ${c.run}`;
}

/** The topology tags of a sweep's workers: one per worker, distinct from other processes' (pid), as a queue worker's. */
export function sweepTags(workers: number): string[] {
  const base = workerTagBase("");
  return Array.from({ length: workers }, (_, w) => base + w.toString(36));
}
