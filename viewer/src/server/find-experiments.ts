import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { PLAN_SUFFIX, RUNS_SUFFIX } from "@pagepath/results";

/** As deep as findGraphFiles looks (find-graphs.ts), so graphs and experiments are found alike. */
const MAX_DEPTH = 4;

export interface FoundExperiments {
  plans: string[];
  /** Runs files with no plan beside them: their results cannot be placed, which the index should say. */
  orphanRuns: string[];
}

/** The experiment plans and runs files under dir, by name; hidden folders and node_modules skipped. */
export function findExperiments(dir: string): FoundExperiments {
  const found: FoundExperiments = { plans: [], orphanRuns: [] };
  const walk = (d: string, depth: number): void => {
    let entries;
    try {
      entries = readdirSync(d, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (e.name.startsWith(".") || e.name === "node_modules") continue;
      const p = join(d, e.name);
      if (e.isDirectory() && depth < MAX_DEPTH) walk(p, depth + 1);
      else if (!e.isFile()) continue;
      else if (e.name.endsWith(PLAN_SUFFIX)) found.plans.push(p);
      else if (e.name.endsWith(RUNS_SUFFIX) && !existsSync(planBeside(p))) found.orphanRuns.push(p);
    }
  };
  walk(dir, 0);
  return found;
}

function planBeside(runsPath: string): string {
  return runsPath.slice(0, -RUNS_SUFFIX.length) + PLAN_SUFFIX;
}
