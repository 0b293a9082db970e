import { existsSync } from "node:fs";
import { hostname } from "node:os";
import { UnrecoverableError, WaitingError, Worker, type Job } from "bullmq";
import { readPlanFile, type CellKey, type ExperimentPlan, type RunResult } from "@pagepath/results";
import { runCell } from "../sweep/run-cell.js";
import { abandonRuns } from "./abandon-runs.js";
import { fileSha256, QUEUE_NAME, type CellJob } from "./jobs.js";
import { checkRedis } from "./redis-check.js";
import { TagPool, workerTagBase } from "./worker-tags.js";

/**
 * A job whose worker died twice is failed for good (and recorded as a failed run) rather than handed
 * on for ever: a cell that kills machines should not take the whole pool down one by one.
 */
export const MAX_STALLED_COUNT = 2;

export interface QueueWorkerOptions {
  queueUrl: string;
  /** Runs at once, each in a topology of its own (default 1). */
  concurrency?: number;
  /** How long a job stays claimed without this worker renewing it; a dead worker's runs go back after this (default 30). */
  lockSeconds?: number;
  /** Start of this worker's topology tags, at most 2 of [a-z0-9] (default "w"). */
  tagPrefix?: string;
  onEvent(e: QueueWorkerEvent): void;
}

export type QueueWorkerEvent =
  | { type: "ready"; redis: string; queue: string; concurrency: number; lockSeconds: number; tagBase: string }
  | { type: "started"; jobId: string; cell: CellKey; tag: string; attempt: number }
  | { type: "finished"; jobId: string; cell: CellKey; tag: string; result: RunResult; ms: number }
  | { type: "refused"; jobId: string; cell: CellKey; reason: string }
  | { type: "stalled"; jobId: string }
  | { type: "stopping"; running: number; giveBack: boolean }
  | { type: "gave-back"; jobId: string; cell: CellKey; tag: string }
  | { type: "error"; message: string };

export interface QueueWorkerSummary {
  finished: number;
  refused: number;
  gaveBack: number;
}

/**
 * Takes cells from the run queue and runs them until SIGINT or SIGTERM, returning each run result as
 * its job's return value for the enqueuing process to record. The first signal stops taking jobs and
 * lets the running ones finish; a second gives them back to the queue at once, so another worker
 * takes them without waiting for their locks to expire, kills every child process of this one (the
 * runs' servers and clients: run a worker in a process of its own), takes the runs' topologies down
 * and returns; the caller should then exit, as the abandoned runs' code is still pending.
 */
export async function runQueueWorker(o: QueueWorkerOptions): Promise<QueueWorkerSummary> {
  const concurrency = o.concurrency ?? 1;
  const lockSeconds = o.lockSeconds ?? 30;
  const tagPrefix = o.tagPrefix ?? "w";
  const tags = new TagPool(tagPrefix, concurrency);
  const { connection, shown } = await checkRedis(o.queueUrl);
  const summary: QueueWorkerSummary = { finished: 0, refused: 0, gaveBack: 0 };
  const givenBackTags: string[] = [];
  let running = 0;

  const processCell = async (job: Job<CellJob, RunResult>, token?: string, signal?: AbortSignal): Promise<RunResult> => {
    const { cell } = job.data;
    let plan: ExperimentPlan;
    try {
      plan = jobPlan(job.data);
    } catch (e) {
      summary.refused++;
      o.onEvent({ type: "refused", jobId: job.id!, cell, reason: (e as Error).message });
      throw new UnrecoverableError((e as Error).message);
    }
    const tag = tags.take();
    running++;
    try {
      o.onEvent({ type: "started", jobId: job.id!, cell, tag, attempt: job.attemptsStarted });
      const started = Date.now();
      const givenBack = new Promise<"given back">((resolve) => signal?.addEventListener("abort", () => resolve("given back"), { once: true }));
      // A topology per run, not kept between runs as a local sweep keeps them: a worker is stopped
      // by SIGKILL at times (the queue gives its jobs to others), and a topology kept up while it
      // waited for work would outlive it (the emulator runs in a session of its own).
      const result = await Promise.race([runCell({ plan, planFile: job.data.planFile, cell, tag, freshTopology: true }), givenBack]);
      if (result === "given back") {
        await job.moveToWait(token);
        summary.gaveBack++;
        givenBackTags.push(tag);
        o.onEvent({ type: "gave-back", jobId: job.id!, cell, tag });
        throw new WaitingError();
      }
      summary.finished++;
      o.onEvent({ type: "finished", jobId: job.id!, cell, tag, result, ms: Date.now() - started });
      return result;
    } finally {
      running--;
      tags.give(tag);
    }
  };

  const worker = new Worker<CellJob, RunResult>(QUEUE_NAME, processCell, {
    connection,
    concurrency,
    lockDuration: lockSeconds * 1000,
    // A dead worker's job goes back within about two intervals after its lock expires.
    stalledInterval: lockSeconds * 1000,
    maxStalledCount: MAX_STALLED_COUNT,
    name: `${hostname()} pid ${process.pid}`,
    autorun: false,
  });
  worker.on("error", (e) => o.onEvent({ type: "error", message: e.message }));
  worker.on("stalled", (jobId) => o.onEvent({ type: "stalled", jobId }));

  let signals = 0;
  const stop = () => {
    signals++;
    o.onEvent({ type: "stopping", running, giveBack: signals > 1 });
    if (signals === 1) void worker.close();
    else worker.cancelAllJobs("the worker was stopped");
  };
  process.on("SIGINT", stop);
  process.on("SIGTERM", stop);
  try {
    await worker.waitUntilReady();
    o.onEvent({ type: "ready", redis: shown, queue: QUEUE_NAME, concurrency, lockSeconds, tagBase: workerTagBase(tagPrefix) });
    await worker.run();
    await worker.close();
    if (givenBackTags.length > 0) abandonRuns(givenBackTags);
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
  return summary;
}

/** The job's plan, if this machine sees the very file the cell was queued from. */
function jobPlan(d: CellJob): ExperimentPlan {
  const where = `on ${hostname()}`;
  if (!existsSync(d.planFile)) {
    throw new Error(`${d.planFile}: no such file ${where}: every worker must see the plan, its graphs and recordings at the same absolute paths (a shared folder, or the same checkout and corpus)`);
  }
  const sha = fileSha256(d.planFile);
  if (sha !== d.planSha256) {
    throw new Error(`${d.planFile}: ${where} its SHA-256 is ${sha}, but the cell was queued from a plan with SHA-256 ${d.planSha256}: this machine's copy differs from the one the experiment was queued with`);
  }
  return readPlanFile(d.planFile);
}
