/**
 * Reads an experiment: its plan and the run results appended to `<name>.runs.jsonl` beside it. A last
 * line without its newline is what a crash mid-write leaves: it is skipped with a warning and its cell
 * counts as not run. Any other bad line makes the experiment invalid, naming the file, line and place.
 */
import { closeSync, openSync, readSync } from "node:fs";
import { cellId, cellOf, PLAN_SUFFIX, RUNS_SUFFIX, type ExperimentPlan } from "./experiment.js";
import { transportKnobsLabel } from "./plan-transport-knobs.js";
import { planMismatches } from "./plan-match.js";
import type { RunResult } from "./run-result.js";
import { readPlanFile } from "./validate-plan.js";
import { completeLines } from "./runs-file-lines.js";
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

export interface ReadOptions {
  /**
   * Keep each run's configuration, metrics and paths but not its requests, node timings and
   * connections (null, null, []): a thesis-scale sweep's runs, 40 KB each, would not fit in memory
   * whole, and a summary of load times needs none of them. Each line is still checked in full.
   */
  light?: boolean;
}

/** Reads and checks a plan and its runs; throws an Error listing every problem. */
export function readExperiment(planPath: string, options: ReadOptions = {}): Experiment {
  const plan = readPlanFile(planPath);
  const runsPath = runsFileFor(planPath);
  let lines: Generator<string>;
  try {
    lines = fileLines(runsPath);
  } catch (e) {
    const err = e as NodeJS.ErrnoException;
    if (err.code === "ENOENT") return { plan, runs: [], warnings: [`${runsPath}: does not exist yet: no run has finished`] };
    throw new Error(`${runsPath}: cannot be read (${err.message})`);
  }
  const { runs, warnings, problems } = parseRunLines(lines, runsPath, plan, options);
  if (problems.length > 0) throw new Error(`${runsPath}: not valid results of experiment ${plan.name}:\n${capProblems(problems, runsPath).join("\n")}`);
  return { plan, runs, warnings };
}

/** Bytes read at a time: a runs file can be larger than the longest string JavaScript holds. */
const CHUNK = 16 << 20;

/**
 * A file's lines, the last one without its newline ("" when the file ends in one), read a chunk at a
 * time. Opens the file at once, so a missing one throws here rather than at the first line.
 */
function fileLines(path: string): Generator<string> {
  const fd = openSync(path, "r");
  return (function* () {
    try {
      const buffer = Buffer.alloc(CHUNK);
      let carry = Buffer.alloc(0);
      for (;;) {
        const n = readSync(fd, buffer, 0, CHUNK, null);
        if (n === 0) break;
        const data = carry.length > 0 ? Buffer.concat([carry, buffer.subarray(0, n)]) : buffer.subarray(0, n);
        let start = 0;
        for (let nl = data.indexOf(0x0a, start); nl !== -1; nl = data.indexOf(0x0a, start)) {
          yield data.toString("utf8", start, nl);
          start = nl + 1;
        }
        carry = Buffer.from(data.subarray(start));
      }
      yield carry.toString("utf8");
    } finally {
      closeSync(fd);
    }
  })();
}

/** The runs in a runs file's lines, checked line by line against the format and the plan. */
function parseRunLines(lines: Iterable<string>, file: string, plan: ExperimentPlan, options: ReadOptions): Experiment & { problems: string[] } {
  const warnings: string[] = [];
  const problems: string[] = [];
  const latest = new Map<string, { line: number; run: RunResult }>();
  const torn = (n: number) => warnings.push(`${file}: line ${n}: is incomplete (no newline at its end: the sweep stopped while writing it); skipped, so its cell counts as not run`);
  for (const { n, text } of completeLines(lines, torn)) parseLine(text, n);
  const runs = [...latest.values()].sort((a, b) => a.line - b.line).map((e) => e.run);
  return { plan, runs, warnings, problems };

  function parseLine(raw: string, n: number): void {
    const where = `${file}: line ${n}`;
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
    if (earlier) warnings.push(`${where}: reruns the cell of line ${earlier.line} (${describeCell(run)}); line ${n} counts`);
    latest.set(id, { line: n, run: options.light ? { ...run, requests: null, nodeTimings: null, connections: [] } : run });
  }
}

function describeCell(r: RunResult): string {
  const c = cellOf(r);
  return `site ${c.site}, network ${c.network}, ${c.protocol}/${c.transport}${c.scheduler === undefined ? "" : `, scheduler ${c.scheduler}`}${transportKnobsLabel(c).replace(/ /g, ", ")}, ${c.serverModel} server, priority ${c.priority}, run ${c.run}`;
}
