/**
 * Where an experiment's results live. `pagepath experiment` decides it and `pagepath analyze` finds
 * it through this file alone, so that the writer and the readers cannot come to disagree.
 */
import { existsSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { PLAN_SUFFIX, RUNS_SUFFIX } from "./experiment.js";

export interface ExperimentLocation {
  /** The folder that holds the results. */
  dir: string;
  /** The plan the runs belong to: `<dir>/<name>.plan.json` (for `experiment`, the resolved plan). */
  planFile: string;
  /** `<dir>/<name>.runs.jsonl`, beside the plan. */
  runsFile: string;
}

/** A plan's experiment name is its file's name without `.plan.json` (readPlanFile holds the plan to it). */
export function planName(planFile: string): string {
  const name = basename(planFile);
  if (!name.endsWith(PLAN_SUFFIX)) throw new Error(`${planFile}: a plan file's name must end in ${PLAN_SUFFIX}`);
  return name.slice(0, -PLAN_SUFFIX.length);
}

/**
 * Where `pagepath experiment PLAN [--out DIR]` writes: DIR, by default a folder named after the plan,
 * beside it; for a plan already in a folder of its name (the resolved plan experiment wrote, run
 * again to resume), that folder, not one more level down.
 */
export function experimentOutput(planFile: string, outDir?: string): ExperimentLocation {
  const name = planName(planFile);
  const here = dirname(resolve(planFile));
  const dir = resolve(outDir ?? (basename(here) === name ? here : join(here, name)));
  return { dir, planFile: join(dir, name + PLAN_SUFFIX), runsFile: join(dir, name + RUNS_SUFFIX) };
}

/**
 * The results of a plan file as `experiment` left them. Its own runs file comes first: then the plan
 * is the resolved plan in an output folder, or was run with `--out` its own folder. Else the default
 * output folder's, which is also where `experiment PLAN` will write if it has not run yet.
 */
export function findExperimentResults(planFile: string): ExperimentLocation {
  const own = experimentOutput(planFile, dirname(resolve(planFile)));
  return existsSync(own.runsFile) ? own : experimentOutput(planFile);
}
