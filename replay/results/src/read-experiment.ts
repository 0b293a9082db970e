/**
 * Reads an experiment: its plan and the run results appended to `<name>.runs.jsonl` beside it. A last
 * line without its newline is what a crash mid-write leaves: it is skipped with a warning and its cell
 * counts as not run. Any other bad line makes the experiment invalid, naming the file, line and place.
 */
import { readFileSync } from "node:fs";
import { cellId, cellOf, PLAN_SUFFIX, RUNS_SUFFIX, type ExperimentPlan } from "./experiment.js";
import { transportKnobsLabel } from "./plan-transport-knobs.js";
import { planMismatches } from "./plan-match.js";
import type { RunResult } from "./run-result.js";
import { readPlanFile } from "./validate-plan.js";
import { capProblems } from "@pagepath/graph-builder";
import { validateRunResult } from "./validate-run.js";

export interface Experiment {
  plan: ExperimentPlan;
  /** The run that counts for each cell (the last line written for it), in file order. */
  runs: RunResult[];
  /** What was read but set aside: an incomplete last line, lines a later rerun of their cell replaced. */
  warnings: string[];
}

/** `<name>.runs.jsonl` beside `<name>.plan.json` (readPlanFile makes sure the plan's name is its file's). */
export function runsFileFor(planPath: string): string {
  if (!planPath.endsWith(PLAN_SUFFIX)) throw new Error(`${planPath}: a plan file's name must end in ${PLAN_SUFFIX}`);
  return planPath.slice(0, -PLAN_SUFFIX.length) + RUNS_SUFFIX;
}

/** Reads and checks a plan and its runs; throws an Error listing every problem. */
export function readExperiment(planPath: string): Experiment {
  const plan = readPlanFile(planPath);
  const runsPath = runsFileFor(planPath);
  let text: string;
  try {
    text = readFileSync(runsPath, "utf8");
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "ENOENT") return { plan, runs: [], warnings: [`${runsPath}: does not exist yet: no run has finished`] };
    throw new Error(`${runsPath}: cannot be read (${err.message})`);
  }
  const { runs, warnings, problems } = parseRuns(text, runsPath, plan);
  if (problems.length > 0) throw new Error(`${runsPath}: not valid results of experiment ${plan.name}:\n${capProblems(problems, runsPath).join("\n")}`);
  return { plan, runs, warnings };
}

/** The runs in a runs file's text, checked line by line against the format and the plan. */
export function parseRuns(text: string, file: string, plan: ExperimentPlan): Experiment & { problems: string[] } {
  const lines = text.split("\n");
  const warnings: string[] = [];
  const problems: string[] = [];
  // After the final newline split() leaves "": anything else there was cut off mid-write.
  const tail = lines.pop()!;
  if (tail.trim() !== "") warnings.push(`${file}: line ${lines.length + 1}: is incomplete (no newline at its end: the sweep stopped while writing it); skipped, so its cell counts as not run`);
  const latest = new Map<string, { line: number; run: RunResult }>();
  lines.forEach((raw, i) => {
    const where = `${file}: line ${i + 1}`;
    if (raw.trim() === "") return;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      problems.push(`${where}: not valid JSON (${(e as Error).message})`);
      return;
    }
    const bad = validateRunResult(value, where);
    const run = value as RunResult;
    if (bad.length === 0) bad.push(...planMismatches(plan, run).map((p) => `${where}: ${p}`));
    if (bad.length > 0) return void problems.push(...bad);
    const id = cellId(cellOf(run));
    const earlier = latest.get(id);
    if (earlier) warnings.push(`${where}: reruns the cell of line ${earlier.line} (${describeCell(run)}); line ${i + 1} counts`);
    latest.set(id, { line: i + 1, run });
  });
  const runs = [...latest.values()].sort((a, b) => a.line - b.line).map((e) => e.run);
  return { plan, runs, warnings, problems };
}

function describeCell(r: RunResult): string {
  const c = cellOf(r);
  return `site ${c.site}, network ${c.network}, ${c.protocol}/${c.transport}${c.scheduler === undefined ? "" : `, scheduler ${c.scheduler}`}${transportKnobsLabel(c).replace(/ /g, ", ")}, ${c.serverModel} server, priority ${c.priority}, run ${c.run}`;
}
