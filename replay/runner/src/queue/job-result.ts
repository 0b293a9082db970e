import { cellId, cellOf, planMismatches, validateRunResult, type ExperimentPlan, type RunResult } from "@pagepath/results";
import type { Job } from "bullmq";
import { failedRunResult } from "../sweep/run-cell.js";
import type { CellJob } from "./jobs.js";

/**
 * The run result a finished job stands for: what its worker returned, if it fits the plan, else a
 * failed run saying why. A job that failed for good (refused, thrown, stalled too often) becomes a
 * failed run too, so that its cell is counted and reported instead of waited for.
 *
 * Made from the job alone, so the same job always gives the same result: its start time tells a
 * result already in the runs file from a new one.
 */
export function jobRunResult(job: Job<CellJob, RunResult>, state: "completed" | "failed", plan: ExperimentPlan, planFile: string): RunResult {
  const { cell } = job.data;
  const failed = (error: string) => {
    const network = plan.networks.find((n) => n.name === cell.network)!;
    return { ...failedRunResult({ plan, planFile, cell, tag: "" }, network, error), startedAt: new Date(job.processedOn ?? job.timestamp).toISOString() };
  };
  if (state === "failed") return failed(`the queue gave up on this run (job ${job.id}, worker ${job.processedBy ?? "unknown"}): ${job.failedReason}`);
  const r = job.returnvalue;
  const where = `job ${job.id}'s run result`;
  const problems = validateRunResult(r, where);
  if (problems.length === 0) problems.push(...planMismatches(plan, r).map((p) => `${where}: ${p}`));
  if (problems.length === 0 && cellId(cellOf(r)) !== cellId(cell)) problems.push(`${where}: is for another cell than the job's`);
  return problems.length === 0 ? r : failed(`the worker (${job.processedBy ?? "unknown"}) returned a run result that does not fit the plan: ${problems.join("; ")}`);
}
