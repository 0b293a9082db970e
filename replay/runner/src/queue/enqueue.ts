import type { CellKey, ExperimentPlan } from "@pagepath/results";
import { cellJobId, type RunQueue } from "./jobs.js";

/** Jobs per Redis round trip: big plans have tens of thousands of cells. */
const BATCH = 500;

export interface QueuedPlan {
  plan: ExperimentPlan;
  /** Absolute path of the resolved plan. */
  planFile: string;
  planSha256: string;
}

/**
 * One job per cell, with an id that depends only on the plan and the cell: BullMQ adds nothing for
 * an id it already holds (waiting, running, or finished and not yet collected), so queueing a plan
 * again, or again after a crash, never runs a cell twice.
 */
export async function enqueueCells(queue: RunQueue, q: QueuedPlan, cells: CellKey[]): Promise<void> {
  for (let i = 0; i < cells.length; i += BATCH) {
    await queue.addBulk(
      cells.slice(i, i + BATCH).map((cell) => ({
        name: q.plan.name,
        data: { planFile: q.planFile, planSha256: q.planSha256, cell },
        opts: { jobId: cellJobId(q.plan.name, q.planSha256, cell) },
      })),
    );
  }
}
