import { availableParallelism } from "node:os";
import { dirname } from "node:path";
import { shownPath } from "../shown-path.js";
import { readExperiment } from "@pagepath/results";
import { abandonRuns, describeCell, estimateSweep, formatDuration, MAX_CONCURRENCY, owedCells, parseDuration, prepareExperiment, requireRoot, runLocalSweep, sweepLanes, sweepTags } from "@pagepath/runner";
import { Progress } from "../progress.js";
import { stopSweepOnSignal } from "../sweep-interrupt.js";
import { sweepProgress } from "../sweep-progress.js";
import { redisOption } from "../redis-option.js";
import { numberOption, UsageError, type Verb } from "../verb.js";

export const experimentVerb: Verb = {
  name: "experiment",
  summary: "run an experiment plan: every site x network x protocol x ... cell, in parallel, resumable",
  usage: `
usage: pagepath experiment PLAN.plan.json [--out DIR] [--workers N] [--time-budget DURATION]
                           [--retry-failed] [--dry-run] [--redis redis://HOST:PORT]

Checks the plan (docs/formats/experiment-results.md) and every graph and recording it names, writes
the resolved plan (every network of its grid and sample explicit) to OUT/<name>.plan.json, then
runs each cell in a topology of its own, --workers at a time, appending each result to
OUT/<name>.runs.jsonl as it finishes. Run it again to resume: cells with a result are skipped. A
failed run is retried once, then recorded as failed. Ctrl-C (or SIGTERM) stops at once; the runs
under way are dropped, with their processes and topologies, and run again on resume. Look at the
results with: pagepath analyze OUT, pagepath view OUT.
Needs root, as pagepath net does: without it, the plan is checked and nothing is written.
--dry-run and --redis need no root.
  --out DIR              where results go (default: a folder named after the plan, beside it)
  --workers N            runs at once, each in its own topology (default: half of this machine's
                         ${availableParallelism()} CPUs, at least 1, so ${defaultWorkers()} here; never more than the runs to go;
                         a plan of "client": "simulated" runs in virtual time, one run per CPU, without root)
  --time-budget D        refuse a plan whose estimated duration exceeds D (e.g. 90m, 2h, 1h30m)
  --retry-failed         also run again the cells whose recorded run failed
  --dry-run              check the plan and print its size and estimated duration, run nothing
  --redis URL            enqueue the runs on a Redis-backed BullMQ queue for \`pagepath worker\`
                         processes (on this or other machines) and collect their results here
                         (--queue URL: its old name)
`,
  paths: { options: ["out"], positionals: true },
  options: {
    out: { type: "string" },
    workers: { type: "string" },
    "time-budget": { type: "string" },
    "retry-failed": { type: "boolean", default: false },
    "dry-run": { type: "boolean", default: false },
    redis: { type: "string" },
    queue: { type: "string" },
  },
  async run(values, positionals) {
    if (positionals.length !== 1) throw new UsageError("give one plan file (NAME.plan.json)");
    const asked = values.workers === undefined ? null : numberOption(values, "workers", 1, 1, MAX_CONCURRENCY);
    if (asked !== null && !Number.isInteger(asked)) throw new UsageError(`--workers "${values.workers}": expected a whole number`);
    const budgetMs = values["time-budget"] === undefined ? null : parseDuration(String(values["time-budget"]));
    if (budgetMs === null && values["time-budget"] !== undefined) throw new UsageError(`--time-budget "${values["time-budget"]}": expected a duration such as 90m, 2h or 1h30m`);
    // Without root every run would fail and be recorded as failed, and a later sweep as root would
    // take those cells as done: refuse once the plan is checked, before its resolved copy is written.
    // A dry run only checks, and with --redis the runs are made by workers, which refuse for themselves.
    const redis = redisOption(values);
    const sweepsHere = values["dry-run"] !== true && redis === undefined;
    // A simulated plan runs in virtual time: no topology, so no root, and a run per CPU.
    const x = prepareExperiment(positionals[0]!, values.out as string | undefined, sweepsHere
        ? (plan) => {
            if (plan.client !== "simulated") requireRoot();
          }
        : undefined);
    const workers = asked ?? (x.plan.client === "simulated" ? availableParallelism() : defaultWorkers());
    const retryFailed = values["retry-failed"] === true;
    const done = readExperiment(x.planFile).runs;
    const cells = owedCells(x.plan, done, retryFailed);
    const estimate = estimateSweep(x.plan, x.planFile, cells, redis ? 1 : workers, done);
    const total = cells.length + done.length - (retryFailed ? done.filter((r) => r.status === "failed").length : 0);
    const lanes = redis ? "on one worker" : `with ${estimate.workers} worker${estimate.workers === 1 ? "" : "s"}`;
    process.stderr.write(
      `${x.plan.name}: ${x.plan.sites.length} sites x ${x.plan.networks.length} networks x ... = ${total} runs; ${cells.length} to go` +
        `, about ${formatDuration(estimate.totalMs)} ${lanes} (${(estimate.perRunMs / 1000).toFixed(1)} s a run${estimate.calibratedBy ? `, scaled by ${estimate.calibratedBy} runs done` : ""})\n` +
        `results: ${shownPath(x.runsFile)}\n`,
    );
    if (budgetMs !== null && estimate.totalMs > budgetMs) {
      throw new UsageError(
        `${positionals[0]}: the plan's ${cells.length} runs would take about ${formatDuration(estimate.totalMs)} ${lanes}, more than --time-budget ${values["time-budget"]}: ` +
          `cut sites, networks, protocols or runs, add --workers or machines (--redis), or raise --time-budget`,
      );
    }
    if (values["dry-run"] === true || cells.length === 0) {
      if (cells.length === 0) process.stderr.write(`every cell has a result already\n`);
      return 0;
    }
    if (redis) {
      // Loaded only here: a local sweep needs neither BullMQ nor a Redis client.
      const { queueExperiment } = await import("./experiment-queue.js");
      const r = await queueExperiment({ planFile: x.planFile, plan: x.plan, runsFile: x.runsFile, queueUrl: redis, retryFailed });
      return finish(x.planFile, r.failed, []);
    }
    const progress = new Progress(cells.length, x.plan.name);
    stopSweepOnSignal("stopping: the runs under way are dropped; run the same command to resume", () => abandonRuns(sweepTags(sweepLanes(x.plan, workers))));
    const failures: string[] = [];
    const result = await runLocalSweep(
      { plan: x.plan, planFile: x.planFile, runsFile: x.runsFile, cells, workers },
      sweepProgress(progress, (cell, r) => failures.push(`${describeCell(cell)}: ${r.error}`)),
    );
    progress.end();
    return finish(x.planFile, result.failed, failures);
  },
};

function finish(planFile: string, failed: number, failures: string[]): number {
  const x = readExperiment(planFile);
  const counted = x.runs.length;
  const failedTotal = x.runs.filter((r) => r.status === "failed").length;
  process.stdout.write(`${x.plan.name}: ${counted} runs recorded, ${failedTotal} failed${failed ? ` (${failed} in this sweep)` : ""}\n`);
  for (const f of failures) process.stdout.write(`  failed: ${f.split("\n")[0]}\n`);
  process.stdout.write(`analyze: pagepath analyze ${shownPath(planFile)}\nbrowse:  pagepath view ${shownPath(dirname(planFile))}\n`);
  return failedTotal > 0 ? 1 : 0;
}

/** A run is a browser, its servers and an emulator: half the CPUs leaves each run room to keep its timings. */
function defaultWorkers(): number {
  return Math.max(1, Math.floor(availableParallelism() / 2));
}
