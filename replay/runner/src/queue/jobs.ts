import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import type { Queue } from "bullmq";
import { cellId, type CellKey, type RunResult } from "@pagepath/results";

/**
 * Every experiment's runs go to this one queue, so a worker serves whatever is queued without being
 * told experiment names; job ids keep experiments apart.
 */
export const QUEUE_NAME = "pagepath-runs";

/** What a worker needs to run one cell: the resolved plan is read from the shared file system. */
export interface CellJob {
  /** Absolute path of the resolved plan, the same on every machine. */
  planFile: string;
  /** Of the plan file's bytes when the cell was queued: a worker with another copy refuses the job. */
  planSha256: string;
  cell: CellKey;
}

export type RunQueue = Queue<CellJob, RunResult>;

/**
 * Ids shared by every job of one version of one plan. `~` is not allowed in plan names, so one
 * experiment's prefix never starts another's; BullMQ forbids ':' and all-digit ids, which this
 * avoids. The plan's hash is in it so that jobs queued for an edited plan are never mistaken for
 * this one's.
 */
export function experimentJobPrefix(planName: string, planSha256: string): string {
  return `${planName}~${planSha256.slice(0, 12)}~`;
}

/** The same cell of the same plan always gets the same id, so queueing it again adds nothing. */
export function cellJobId(planName: string, planSha256: string, cell: CellKey): string {
  return experimentJobPrefix(planName, planSha256) + createHash("sha256").update(cellId(cell)).digest("hex").slice(0, 24);
}

export function fileSha256(file: string): string {
  return createHash("sha256").update(readFileSync(file)).digest("hex");
}
