import { constants } from "node:os";
import { cellOf, type ExperimentPlan } from "@pagepath/results";
import { CollectorBusy, collectExperiment, describeCell, fileSha256, openRunQueue, pendingCells } from "@pagepath/runner";
import { Progress } from "../progress.js";
import { runNote } from "../sweep-progress.js";

export interface QueueExperiment {
  /** The resolved plan (prepareExperiment), an absolute path every worker sees too. */
  planFile: string;
  plan: ExperimentPlan;
  runsFile: string;
  queueUrl: string;
  retryFailed: boolean;
}

/**
 * `pagepath experiment PLAN --redis URL`: queues the cells that have no line yet for `pagepath worker`
 * processes on any machine, and appends their results to the runs file here as they come back.
 * Ctrl-C stops waiting, not the runs: the same command later collects what finished meanwhile.
 */
export async function queueExperiment(o: QueueExperiment): Promise<{ done: number; failed: number }> {
  const { queue, shown } = await openRunQueue(o.queueUrl);
  const stop = new AbortController();
  // The first signal lets go of the claim and the connection cleanly, which needs Redis; while Redis
  // is away that waits for it, so a second one exits at once (the runs file is whole between appends).
  const interrupt = (signal: NodeJS.Signals) => {
    if (stop.signal.aborted) process.exit(128 + constants.signals[signal]);
    process.stderr.write(`\nstopping (${signal === "SIGINT" ? "Ctrl-C" : signal} again stops at once, without waiting for Redis)\n`);
    stop.abort();
  };
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  try {
    const cells = pendingCells(o.plan, o.runsFile, o.retryFailed);
    if (cells.length === 0) return { done: 0, failed: 0 };
    const progress = new Progress(cells.length, o.plan.name);
    const say = (text: string) => process.stderr.write(`${process.stderr.isTTY ? "\n" : ""}${text}\n`);
    // The client retries for as long as Redis is away, and the collection waits: say so, once.
    let away = false;
    queue.on("error", (e: NodeJS.ErrnoException) => {
      if (away) return;
      away = true;
      say(`${shown}: lost the connection to Redis (${e.code ?? e.message}); waiting for it to come back (Ctrl-C twice stops at once)`);
    });
    (await queue.client).on("ready", () => {
      if (away) say(`${shown}: Redis is back`);
      away = false;
    });
    const r = await collectExperiment({
      queue,
      plan: o.plan,
      planFile: o.planFile,
      planSha256: fileSha256(o.planFile),
      runsFile: o.runsFile,
      cells,
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === "running") progress.running(e.running);
        else if (e.type === "recorded") progress.finished(describeCell(cellOf(e.result)), e.result.status !== "failed", runNote(e.result));
        else if (e.type === "queued") {
          say(
            `${o.plan.name}: ${e.cells} runs queued on ${shown}; they run on workers started with\n` +
              `  pagepath worker --redis ${shown}\n` +
              `on machines that see ${o.planFile}, its graphs and recordings at the same paths. Results go to ${o.runsFile}.`,
          );
        } else say(`${shown}: Redis restarted; the ${e.requeued} runs not recorded yet are queued again (any it kept are not run twice)`);
      },
    }).catch((e: Error) => {
      if (e instanceof CollectorBusy) throw e;
      throw new Error(`--redis ${shown}: collecting stopped: ${e.message}; the results recorded so far stay in ${o.runsFile}, and the same command collects the rest`);
    });
    progress.end();
    if (r.owed > 0) {
      process.stderr.write(`stopped waiting: ${r.owed} runs are still queued or running on the workers; the same command collects them\n`);
    }
    return { done: r.done, failed: r.failed };
  } finally {
    process.off("SIGINT", interrupt);
    process.off("SIGTERM", interrupt);
    await queue.close();
  }
}
