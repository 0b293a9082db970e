/** BullMQ's concurrency has one base-36 digit per slot in a tag. */
export const MAX_CONCURRENCY = 36;

/**
 * The start of every tag of a worker process: its prefix and its pid in base 36 (at most 5 digits,
 * as Linux pids stay below 2^22), so two workers on one machine never share a topology name.
 */
export function workerTagBase(prefix: string, pid = process.pid): string {
  if (!/^[a-z0-9]{0,2}$/.test(prefix)) throw new Error(`--tag-prefix "${prefix}": expected at most 2 lower-case letters or digits (a run's tag has 8 characters)`);
  return prefix + pid.toString(36);
}

/** One tag per concurrent run of a worker process: a run takes a tag for its topology and gives it back. */
export class TagPool {
  private readonly free: string[];

  constructor(prefix: string, concurrency: number) {
    if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > MAX_CONCURRENCY) throw new Error(`--concurrency ${concurrency}: expected a whole number from 1 to ${MAX_CONCURRENCY}`);
    const base = workerTagBase(prefix);
    this.free = Array.from({ length: concurrency }, (_, slot) => base + slot.toString(36));
  }

  /** BullMQ never runs more jobs at once than the concurrency, so a tag is always free. */
  take(): string {
    const tag = this.free.shift();
    if (tag === undefined) throw new Error("more runs at once than the worker's concurrency (a bug in pagepath)");
    return tag;
  }

  give(tag: string): void {
    this.free.push(tag);
  }
}
