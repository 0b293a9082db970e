import { cellOf, type ExperimentPlan } from "@pagepath/results";
import { collectExperiment, describeCell, fileSha256, openRunQueue, pendingCells } from "@pagepath/runner";
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
 * `pagepath experiment PLAN --queue URL`: queues the cells that have no line yet for `pagepath worker`
 * processes on any machine, and appends their results to the runs file here as they come back.
 * Ctrl-C stops waiting, not the runs: the same command later collects what finished meanwhile.
 */
export async function queueExperiment(o: QueueExperiment): Promise<{ done: number; failed: number }> {
  const { queue, shown } = await openRunQueue(o.queueUrl);
  const stop = new AbortController();
  const interrupt = () => stop.abort();
  process.on("SIGINT", interrupt);
  process.on("SIGTERM", interrupt);
  try {
    const cells = pendingCells(o.plan, o.runsFile, o.retryFailed);
    if (cells.length === 0) return { done: 0, failed: 0 };
    process.stderr.write(
      `${o.plan.name}: ${cells.length} runs queued on ${shown}; they run on workers started with\n` +
        `  pagepath worker --queue ${shown}\n` +
        `on machines that see ${o.planFile}, its graphs and recordings at the same paths. Results go to ${o.runsFile}.\n`,
    );
    const progress = new Progress(cells.length, o.plan.name);
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
        else progress.finished(describeCell(cellOf(e.result)), e.result.status !== "failed", runNote(e.result));
      },
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
