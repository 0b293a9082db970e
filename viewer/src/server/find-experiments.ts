import { existsSync } from "node:fs";
import { PLAN_SUFFIX, RUNS_SUFFIX } from "@pagepath/results";
import { cachedWalk } from "./walk-cache.js";

export interface FoundExperiments {
  plans: string[];
  /** Runs files with no plan beside them: their results cannot be placed, which the index should say. */
  orphanRuns: string[];
}

/**
 * The experiment plans and runs files under dir, by name; hidden folders and node_modules skipped.
 * The walk is kept until a folder changes (walk-cache.ts).
 */
export function findExperiments(dir: string): FoundExperiments {
  return cachedWalk(`experiments\0${dir}`, dir, (walk) => {
    const found: FoundExperiments = { plans: [], orphanRuns: [] };
    walk((p, name) => {
      if (name.endsWith(PLAN_SUFFIX)) found.plans.push(p);
      else if (name.endsWith(RUNS_SUFFIX) && !existsSync(planBeside(p))) found.orphanRuns.push(p);
    });
    return found;
  });
}

function planBeside(runsPath: string): string {
  return runsPath.slice(0, -RUNS_SUFFIX.length) + PLAN_SUFFIX;
}
