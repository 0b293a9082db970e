/**
 * Whether a run result belongs where its cell key puts it: every axis value is one the plan lists, and
 * everything the plan fixes (client, seed, network paths, graph, chunk size, connections) is what the
 * run used. A run that disagrees would be counted in a cell it was not run for.
 */
import { cellSeed, planSchedulerKeys, type ExperimentPlan } from "./experiment.js";
import { runSchedulerKey } from "./plan-schedulers.js";
import { planCongestionKeys, planTailLossProbeKeys, runCongestionKey, runTailLossProbeKey } from "./plan-transport-knobs.js";
import { DEFAULT_CLOCK_TICK_US, TICKED_TRANSPORTS, type PathConfig, type RunResult } from "./run-result.js";

export function planMismatches(plan: ExperimentPlan, r: RunResult): string[] {
  const problems: string[] = [];
  const c = r.configuration;
  const differs = (at: string, got: unknown, want: unknown, what: string) => {
    if (got !== want) problems.push(`${at}: ${JSON.stringify(got)} differs from the plan's ${what} ${JSON.stringify(want)}`);
  };
  differs("/experiment", r.experiment, plan.name, "name");
  differs("/client", r.client, plan.client, "client");
  const site = plan.sites.find((s) => s.name === r.site.name);
  if (!site) problems.push(`/site/name: ${JSON.stringify(r.site.name)} is not a site of the plan`);
  else differs("/site/graph", r.site.graph, site.graph, `graph for site ${site.name}`);
  const network = plan.networks.find((n) => n.name === c.network.name);
  if (!network) problems.push(`/configuration/network/name: ${JSON.stringify(c.network.name)} is not a network of the plan`);
  else if (!samePaths(c.network.paths, network.paths)) problems.push(`/configuration/network/paths: differ from the paths of the plan's network ${JSON.stringify(network.name)}`);
  const axis = <T>(at: string, value: T, values: readonly T[], what: string) => {
    if (!values.includes(value)) problems.push(`${at}: ${JSON.stringify(value)} is not one of the plan's ${what} (${values.join(", ")})`);
  };
  axis("/configuration/protocol", c.protocol, plan.protocols, "protocols");
  axis("/configuration/transport", c.transport, plan.transports, "transports");
  axis("/configuration/serverModel", c.serverModel, plan.serverModels, "server models");
  axis("/configuration/priority", c.priority, plan.priorities, "priority schemes");
  // A run from before runs recorded their scheduler is in the cell of what it ran (runSchedulerKey).
  if (c.scheduler !== undefined && !planSchedulerKeys(plan, c.transport).includes(runSchedulerKey(c))) {
    const keys = planSchedulerKeys(plan, c.transport).map((k) => JSON.stringify(k ?? null));
    problems.push(`/configuration/scheduler: ${JSON.stringify(runSchedulerKey(c) ?? null)} is not one of the plan's schedulers for ${c.transport} (${keys.join(", ")})`);
  }
  // Runs from before these fields are in the default cell (plan-transport-knobs.ts says why).
  if (c.congestion !== undefined && !planCongestionKeys(plan).includes(runCongestionKey(c))) {
    problems.push(`/configuration/congestion: ${JSON.stringify(c.congestion)} is not one of the plan's congestion controllers (${planCongestionKeys(plan).map((k) => k ?? "cubic").join(", ")})`);
  }
  if (c.tailLossProbes !== undefined && !planTailLossProbeKeys(plan, c.transport).includes(runTailLossProbeKey(c))) {
    problems.push(`/configuration/tailLossProbes: ${JSON.stringify(c.tailLossProbes)} is not one of the plan's tail-loss-probe settings for ${c.transport}`);
  }
  if (r.run >= plan.runs) problems.push(`/run: ${r.run} is beyond the plan's ${plan.runs} runs per cell (0 to ${plan.runs - 1})`);
  else differs("/seed", r.seed, cellSeed(plan, r.run), `seed for run ${r.run} (baseSeed + run)`);
  if (plan.preemption !== undefined) differs("/configuration/preemption", c.preemption ?? false, plan.preemption, "preemption");
  if (plan.tcpProfile !== undefined && c.transport === "tcp") differs("/configuration/tcpProfile", c.tcpProfile ?? "linux", plan.tcpProfile, "TCP profile");
  if (plan.clockTickUs !== undefined && TICKED_TRANSPORTS.includes(c.transport)) differs("/configuration/clockTickUs", c.clockTickUs ?? DEFAULT_CLOCK_TICK_US, plan.clockTickUs, "clock tick");
  differs("/configuration/chunkSizeBytes", c.chunkSizeBytes, plan.chunkSizeBytes, "chunk size");
  if (c.protocol in plan.connectionsPerOrigin) {
    differs("/configuration/connectionsPerOrigin", c.connectionsPerOrigin, plan.connectionsPerOrigin[c.protocol], `connections per origin for ${c.protocol}`);
  }
  return problems;
}

function samePaths(a: PathConfig[], b: PathConfig[]): boolean {
  const key = (p: PathConfig) => [p.upMbps, p.downMbps, p.rttMs, p.loss, p.queue?.discipline, p.queue?.packets, p.trace?.uplink, p.trace?.downlink, p.rttJitter ?? 0].join(" ");
  return a.length === b.length && a.every((p, i) => key(p) === key(b[i]!));
}
