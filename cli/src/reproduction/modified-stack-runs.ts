/**
 * Runs seed 001 §6.5's ladder: the single-path reference and each step a plan of its own under
 * WORK/plans, its runs under WORK/results/modified-stack-<step>/, resumable as `pagepath
 * experiment` is. Returns the regimes' statistics and the steps that ran.
 */
import { join, relative, resolve } from "node:path";
import { mkdirSync, writeFileSync } from "node:fs";
import { prepareExperiment, requireRoot } from "@pagepath/runner";
import { readExperiment, type Client } from "@pagepath/results";
import { corpusSites } from "../corpus-sites.js";
import { modifiedStackPlans, SINGLE_PATH, SINGLE_PATH_QUIC, type LadderStep, type ModifiedStackOptions } from "./modified-stack-plans.js";
import { regimeResults, type RegimeResult } from "./modified-stack-results.js";
import { sweepPending } from "./run.js";

export interface ModifiedStackRun {
  client: Client;
  data: string;
  sites?: string[];
  runs: number;
  grid: ModifiedStackOptions["grid"];
  mismatches: ModifiedStackOptions["mismatches"];
  work: string;
  workers: number;
}

export interface ModifiedStackResults {
  /** Every step against single-path TCP, the thesis's reference. */
  regimes: RegimeResult[];
  /** The multipath QUIC steps against single-path QUIC: what the second path adds. */
  overQuic: RegimeResult[];
  steps: LadderStep[];
  sites: number;
}

export async function runModifiedStack(r: ModifiedStackRun): Promise<ModifiedStackResults> {
  const corpus = corpusSites(r.data, r.sites);
  if (r.client === "emulated") requireRoot();
  const plansDir = join(resolve(r.work), "plans");
  mkdirSync(plansDir, { recursive: true });
  const sites = corpus.sites.map((name) => ({ name, graph: relative(plansDir, join(resolve(corpus.graphsDir), `${name}.json`)) }));
  const prepared = modifiedStackPlans({ client: r.client, sites, runs: r.runs, grid: r.grid, mismatches: r.mismatches }).map(({ step, plan }) => {
    const file = join(plansDir, `${plan.name}.plan.json`);
    writeFileSync(file, JSON.stringify(plan, null, 2) + "\n");
    return { step, prepared: prepareExperiment(file, join(resolve(r.work), "results", plan.name)) };
  });
  for (const { prepared: x } of prepared) await sweepPending(x, r.workers);
  const runsOf = (p: (typeof prepared)[number]) => readExperiment(p.prepared.planFile, { light: r.client === "simulated" }).runs;
  const [tcp, quic, ...steps] = prepared;
  if (tcp?.step !== SINGLE_PATH || quic?.step !== SINGLE_PATH_QUIC) throw new Error("modified-stack: the single-path references must be the first plans");
  const stepRuns = steps.map((s) => ({ step: s.step.name, runs: runsOf(s) }));
  const overQuic = stepRuns.filter((s) => steps.find((x) => x.step.name === s.step)!.step.transport === "mpquic");
  return { regimes: regimeResults(runsOf(tcp), stepRuns), overQuic: regimeResults(runsOf(quic), overQuic), steps: steps.map((s) => s.step), sites: sites.length };
}
