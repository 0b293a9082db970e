import { Job } from "bullmq";
import { cellId, cellOf, readExperiment, type CellKey, type RunResult } from "@pagepath/results";
import { appendRun } from "../sweep/runs-file.js";
import { claimCollector } from "./collector-lock.js";
import { enqueueCells, type QueuedPlan } from "./enqueue.js";
import { jobRunResult } from "./job-result.js";
import { experimentJobPrefix, type CellJob, type RunQueue } from "./jobs.js";

const POLL_MS = 1000;
/**
 * Cells still owed are queued again this often, and at once after a Redis restart, in case Redis
 * lost their jobs (a restart without persistence, a flush).
 */
const REQUEUE_MS = 30_000;

export interface Collection extends QueuedPlan {
  queue: RunQueue;
  runsFile: string;
  /** The cells this collection owes a line for (pendingCells). */
  cells: CellKey[];
  /** Stops waiting (Ctrl-C): the jobs stay queued and running, and collecting again picks them up. */
  signal?: AbortSignal;
  /** How long the claim on the plan outlives a collector that died (COLLECTOR_LOCK_MS). */
  lockMs?: number;
  onEvent(e: CollectEvent): void;
}

export type CollectEvent =
  | { type: "recorded"; result: RunResult; jobFailed: boolean }
  | { type: "running"; running: number }
  | { type: "queued"; cells: number }
  | { type: "redis-restarted"; requeued: number };

/**
 * Queues the owed cells and records their results as workers finish them: each finished job's run
 * result is appended to the runs file once, then the job is removed from Redis. A cell is recorded
 * only while owed, and a job whose result is already the cell's line (a collector stopped between
 * writing it and removing the job) is just removed, so a crash or Ctrl-C at any point loses and
 * duplicates nothing. Resolves when every owed cell has its line, or when the signal stops it.
 * Throws at once if another collector holds the plan (claimCollector). Rides out a Redis restart:
 * the commands wait for the reconnection, and the cells still owed are queued again at once.
 */
export async function collectExperiment(c: Collection): Promise<{ done: number; failed: number; owed: number }> {
  const prefix = experimentJobPrefix(c.plan.name, c.planSha256);
  const lock = await claimCollector(c.queue, prefix, c.planFile, c.lockMs);
  try {
    return await collect(c, prefix, () => lock.lost);
  } finally {
    await lock.release();
  }
}

async function collect(c: Collection, prefix: string, lost: () => string | null): Promise<{ done: number; failed: number; owed: number }> {
  const owed = new Map(c.cells.map((cell) => [cellId(cell), cell]));
  const lines = new Map(readExperiment(c.planFile).runs.map((r) => [cellId(cellOf(r)), r.startedAt]));
  const ours = (ids: string[]) => ids.filter((id) => id.startsWith(prefix));
  let done = 0;
  let failed = 0;
  let queuedAt = -Infinity;
  let announced = false;
  let restarted = false;
  let runId = await redisRunId(c.queue);

  const settle = async (id: string, state: "completed" | "failed") => {
    const job: Job<CellJob, RunResult> | undefined = await Job.fromId(c.queue, id);
    if (!job) return;
    const result = jobRunResult(job, state, c.plan, c.planFile);
    const key = cellId(job.data.cell);
    if (owed.has(key) && lines.get(key) !== result.startedAt) {
      appendRun(c.runsFile, result);
      lines.set(key, result.startedAt);
      owed.delete(key);
      done++;
      if (result.status === "failed") failed++;
      c.onEvent({ type: "recorded", result, jobFailed: state === "failed" });
    }
    await c.queue.remove(id);
  };

  while (owed.size > 0 && !c.signal?.aborted) {
    const taken = lost();
    if (taken !== null) throw new Error(taken);
    const now = await redisRunId(c.queue);
    if (now !== runId) {
      runId = now;
      queuedAt = -Infinity;
      restarted = true;
    }
    // Finished jobs are settled before queueing, so a stale one cannot stand in for a cell owed again.
    for (const state of ["completed", "failed"] as const) {
      for (const id of ours(await c.queue.getRanges([state], 0, -1))) {
        if (c.signal?.aborted) break;
        await settle(id, state);
      }
    }
    if (Date.now() - queuedAt >= REQUEUE_MS) {
      await enqueueCells(c.queue, c, [...owed.values()]);
      if (!announced) c.onEvent({ type: "queued", cells: owed.size });
      else if (restarted) c.onEvent({ type: "redis-restarted", requeued: owed.size });
      announced = true;
      restarted = false;
      queuedAt = Date.now();
    }
    c.onEvent({ type: "running", running: ours(await c.queue.getRanges(["active"], 0, -1)).length });
    if (owed.size > 0) await pause(POLL_MS, c.signal);
  }
  return { done, failed, owed: owed.size };
}

/** Changes when the Redis server restarts, which may have lost every job. */
async function redisRunId(queue: RunQueue): Promise<string> {
  const info = await (await queue.client).info();
  return /^run_id:(\w+)/m.exec(info)?.[1] ?? "";
}

function pause(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    }
  });
}
