/**
 * The experiment format (DESIGN.md contract 4): a plan, `<name>.plan.json`, and its results,
 * `<name>.runs.jsonl` beside it, one run result per line, appended as runs finish so that a sweep
 * resumes after a crash. Described in docs/formats/experiment-results.md; the plan's JSON Schema is
 * replay/results/schema/experiment-plan.schema.json.
 */
import {
  transportsFor,
  type Client,
  type NetworkConfig,
  type PriorityScheme,
  type Protocol,
  type RunResult,
  type ServerModel,
  type Transport,
} from "./run-result.js";

export const EXPERIMENT_SCHEMA_VERSION = 1;
export const PLAN_SUFFIX = ".plan.json";
export const RUNS_SUFFIX = ".runs.jsonl";

export interface PlanSite {
  name: string;
  /** The graph file, relative to the plan's directory. */
  graph: string;
}

export interface ExperimentPlan {
  schemaVersion: typeof EXPERIMENT_SCHEMA_VERSION;
  kind: "pagepath-experiment-plan";
  /** The file is `<name>.plan.json`. */
  name: string;
  description: string;
  client: Client;
  /** Run r of every cell uses seed baseSeed + r (see cellSeed). */
  baseSeed: number;
  /** Replications per cell. */
  runs: number;
  sites: PlanSite[];
  networks: NetworkConfig[];
  protocols: Protocol[];
  transports: Transport[];
  serverModels: ServerModel[];
  priorities: PriorityScheme[];
  chunkSizeBytes: number;
  /** Per protocol in `protocols`; null lets the client decide. */
  connectionsPerOrigin: Partial<Record<Protocol, number | null>>;
}

/** Where a run sits in its plan's matrix: a value of each axis and the replication number. */
export interface CellKey {
  site: string;
  network: string;
  protocol: Protocol;
  transport: Transport;
  serverModel: ServerModel;
  priority: PriorityScheme;
  run: number;
}

export function cellOf(r: RunResult): CellKey {
  const c = r.configuration;
  return { site: r.site.name, network: c.network.name, protocol: c.protocol, transport: c.transport, serverModel: c.serverModel, priority: c.priority, run: r.run };
}

/** One string per cell, for maps and for finding which cells a resumed sweep still owes. */
export function cellId(k: CellKey): string {
  return JSON.stringify([k.site, k.network, k.protocol, k.transport, k.serverModel, k.priority, k.run]);
}

/**
 * Seeds depend on the replication only, not on the configuration: run r of every cell draws the same
 * random numbers (as PCP's ns-3 runs did), so two configurations are compared on equal luck.
 */
export function cellSeed(plan: ExperimentPlan, run: number): number {
  return plan.baseSeed + run;
}

/** The protocol and transport pairs the plan runs: combinations that cannot work are not cells. */
export function planStacks(plan: ExperimentPlan): { protocol: Protocol; transport: Transport }[] {
  return plan.protocols.flatMap((protocol) => plan.transports.filter((t) => transportsFor(protocol).includes(t)).map((transport) => ({ protocol, transport })));
}

export function plannedRunCount(plan: ExperimentPlan): number {
  return plan.sites.length * plan.networks.length * planStacks(plan).length * plan.serverModels.length * plan.priorities.length * plan.runs;
}
