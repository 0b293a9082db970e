import { describeCell, MAX_CONCURRENCY, requireRoot, runQueueWorker, type QueueWorkerEvent } from "@pagepath/runner";
import { redisOption } from "../redis-option.js";
import { numberOption, UsageError, type Verb } from "../verb.js";

export const workerVerb: Verb = {
  name: "worker",
  summary: "run experiment cells from a Redis queue, for `pagepath experiment --redis` on any machine",
  usage: `
usage: pagepath worker --redis redis://[:password@]host[:port][/db] [--concurrency N] [--lock-seconds S] [--tag-prefix P]

Takes cells queued by \`pagepath experiment PLAN --redis URL\` (on this machine or another) and runs
each in a topology of its own, as the local sweep does, sending every run result back through Redis;
the enqueuing process writes the runs file. The plan, its graphs and recordings must be at the same
absolute paths here as where the experiment was queued (a shared folder, or the same checkout and
corpus); a job whose plan file differs is refused. Needs root. Prints a line per run started and
finished. Ctrl-C (or SIGTERM) stops taking runs and finishes the running ones; a second Ctrl-C gives
them back to the queue at once. A worker that dies loses nothing: its runs go back to the queue
when their locks expire. See docs/experiments-queue.md.
  --redis URL          the Redis that holds the queue (--queue URL: its old name)
  --concurrency N      runs at once (default 1; at most ${MAX_CONCURRENCY})
  --lock-seconds S     how soon a dead worker's runs go back to the queue (default 30)
  --tag-prefix P       start of this worker's topology names, 0-2 of [a-z0-9] (default w)
`,
  options: {
    redis: { type: "string" },
    queue: { type: "string" },
    concurrency: { type: "string" },
    "lock-seconds": { type: "string" },
    "tag-prefix": { type: "string", default: "w" },
  },
  async run(values, positionals) {
    if (positionals.length) throw new UsageError(`unexpected argument "${positionals[0]}"`);
    const redis = redisOption(values);
    if (redis === undefined) throw new UsageError("--redis URL is required");
    const concurrency = numberOption(values, "concurrency", 1, 1, MAX_CONCURRENCY);
    if (!Number.isInteger(concurrency)) throw new UsageError(`--concurrency "${values.concurrency}": expected a whole number`);
    // Before Redis: a worker that cannot run a cell must not say it is ready, nor take one.
    requireRoot();
    const summary = await runQueueWorker({
      queueUrl: redis,
      concurrency,
      lockSeconds: numberOption(values, "lock-seconds", 30, 1, 3600),
      tagPrefix: String(values["tag-prefix"]),
      onEvent: (e) => process.stdout.write(`${new Date().toISOString()} ${line(e)}\n`),
    });
    process.stdout.write(`${new Date().toISOString()} stopped: ${summary.finished} runs finished, ${summary.refused} refused, ${summary.gaveBack} given back\n`);
    return summary.gaveBack > 0 ? 130 : 0;
  },
};

function line(e: QueueWorkerEvent): string {
  switch (e.type) {
    case "ready":
      return `worker ready: queue ${e.queue} on ${e.redis}, ${e.concurrency} at once, locks ${e.lockSeconds} s, tags ${e.tagBase}*, pid ${process.pid}`;
    case "started":
      return `started ${e.jobId} ${describeCell(e.cell)} tag ${e.tag} attempt ${e.attempt}`;
    case "finished": {
      const r = e.result;
      const what = r.status === "ok" ? `ok${r.metrics.loadMs === null ? "" : ` load ${r.metrics.loadMs.toFixed(0)} ms`}` : `${r.status}: ${(r.error ?? "").split("\n")[0]}`;
      return `finished ${e.jobId} ${describeCell(e.cell)} ${what} in ${(e.ms / 1000).toFixed(1)} s`;
    }
    case "refused":
      return `refused ${e.jobId} ${describeCell(e.cell)}: ${e.reason}`;
    case "stalled":
      return `stalled ${e.jobId}: its worker stopped renewing its lock; back in the queue`;
    case "stopping":
      return e.giveBack
        ? `giving back ${e.running} running runs to the queue`
        : `stopping: finishing ${e.running} running runs (Ctrl-C again to give them back to the queue now)`;
    case "gave-back":
      return `gave back ${e.jobId} ${describeCell(e.cell)} (tag ${e.tag}): it can run elsewhere now`;
    case "error":
      return `error: ${e.message}`;
  }
}
