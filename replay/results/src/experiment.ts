/**
 * The experiment format (DESIGN.md contract 4): a plan, `<name>.plan.json`, and its results,
 * `<name>.runs.jsonl` beside it, one run result per line, appended as runs finish so that a sweep
 * resumes after a crash. Described in docs/formats/experiment-results.md; the plan's JSON Schema is
 * formats/schema/experiment-plan.schema.json.
 */
import { planSchedulers, runSchedulerKey, schedulerKey } from "./plan-schedulers.js";
import { planCongestionKeys, planTailLossProbeKeys, runCongestionKey, runTailLossProbeKey } from "./plan-transport-knobs.js";
import {
  transportsFor,
  type Client,
  type NetworkConfig,
  type PriorityScheme,
  type Protocol,
  type RunResult,
  type ServerModel,
  type TcpProfile,
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
  /**
   * Every network the plan runs. A plan as written may give them by `grid` or `sample` instead (or
   * as well): readPlanFile adds the networks those make here, so readers see one list.
   */
  networks: NetworkConfig[];
  grid?: NetworkGrid;
  sample?: NetworkSample;
  /** The path layouts each grid or sample point is run under; one path when absent. */
  topologies?: TopologyShape[];
  protocols: Protocol[];
  transports: Transport[];
  serverModels: ServerModel[];
  priorities: PriorityScheme[];
  chunkSizeBytes: number;
  /** Per protocol in `protocols`; null lets the client decide. */
  connectionsPerOrigin: Partial<Record<Protocol, number | null>>;
  /** What a run waits for and the analyses measure; `load` when absent. */
  metric?: "dcl" | "load" | "graph";
  /** Whether the servers switch to a more urgent response at every chunk; false when absent. */
  preemption?: boolean;
  /**
   * What each run result keeps: everything (full, when absent), or a summary without node timings
   * and requests, which are most of a run's 40 KB: a thesis-scale sweep writes 300,000 runs.
   */
  runDetail?: "full" | "summary";
  /**
   * The simulator's TCP (client simulated only): Linux's defaults, or seed 001's ns-3 settings
   * (Table 3.3: New Reno, initial window 4, 100 ms delayed ACKs); linux when absent.
   */
  tcpProfile?: TcpProfile;
  /** How far the simulator's clock moves at least, µs, over tcp and mptcp (client simulated only); DEFAULT_CLOCK_TICK_US when absent. */
  clockTickUs?: number;
  /**
   * Per multipath transport of `transports`, the scheduler its cells run with (mpquic: pagepath's
   * or tquic's, mptcp: the kernel's), or an array of them, each a cell of its own (a factor of the
   * plan); the transport's default (PLAN_DEFAULT_SCHEDULERS) when absent.
   */
  scheduler?: Partial<Record<"mpquic" | "mptcp", PlannedScheduler | PlannedScheduler[]>>;
  /**
   * The servers' congestion controller (the kernel's over tcp/mptcp, tquic's over quic/mpquic), or
   * an array of them, each a cell of its own; cubic when absent.
   */
  congestion?: string | string[];
  /**
   * TCP tail loss probes in the servers' namespace for the tcp and mptcp cells, or an array (a
   * factor); on when absent. QUIC cells run one cell with their probe timeout, whatever this says.
   */
  tailLossProbes?: boolean | boolean[];
  /** How long a run may take before it is ended as incomplete; DEFAULT_RUN_TIMEOUT_MS when absent. */
  timeoutMs?: number;
}

export const DEFAULT_RUN_TIMEOUT_MS = 120_000;

export interface PlannedScheduler {
  name: string;
  /** As `--scheduler-opt KEY=VALUE`, values as strings; none when absent. */
  options?: Record<string, string>;
}

/** A full factorial grid of networks (seed 001 Table 4.1). Rates are the same up and down. */
export interface NetworkGrid {
  rateMbit?: number[];
  rttMs: number[];
  /** Random loss on every path and direction; [0] when absent. */
  loss?: number[];
  /** Drop-tail buffer in bandwidth-delay products of its path; [1.5] (PCP's) when absent. */
  queueBdp?: number[];
  /** Trace-driven paths (files relative to the plan), each run at every RTT and loss. */
  traces?: { name: string; uplink: string; downlink: string }[];
  /** A trace has no one rate to size a buffer by: its drop-tail buffer in packets (100 when absent). */
  traceQueuePackets?: number;
  /**
   * Every path's buffer: drop-tail (when absent), or RED with seed 001 Table 3.4's thresholds, the
   * thesis's drop tail "with added randomness" (§3.7.7.3). Not an axis: one for the whole grid.
   */
  queueDiscipline?: "droptail" | "red";
  /**
   * Each run draws every path's one-way delays uniformly within this fraction of them, once per
   * run from its seed (seed 001 §3.7.7.3: ±0.1); 0 when absent. Not an axis.
   */
  rttJitter?: number;
}

/** Ranges sampled by the WSP space-filling design (seed 003 Table 5.1): `points` networks. */
export interface NetworkSample {
  points: number;
  seed?: number;
  rateMbit: [number, number];
  rttMs: [number, number];
  loss?: [number, number];
  queueBdp?: [number, number];
}

/**
 * How a grid point becomes paths: one path with the point's rate and RTT, or two where the other
 * path has the RTT times rttFactor and the rate times rateFactor (seed 001 §6.3: equal paths, RTT
 * mismatch, bandwidth mismatch). `first` says which is path 0, the path single-path transports use
 * and MPTCP's first subflow takes.
 */
export interface TopologyShape {
  name?: string;
  paths: 1 | 2;
  rttFactor?: number;
  rateFactor?: number;
  first?: "base" | "other";
}

/** Where a run sits in its plan's matrix: a value of each axis and the replication number. */
export interface CellKey {
  site: string;
  network: string;
  protocol: Protocol;
  transport: Transport;
  serverModel: ServerModel;
  priority: PriorityScheme;
  /** The multipath scheduler (schedulerKey, e.g. "ecf beta=1 form=cwnd"); absent over tcp and quic. */
  scheduler?: string;
  /** The congestion controller when not the default cubic; absent for cubic, and for runs that predate the field. */
  congestion?: string;
  /** false when TCP tail loss probes were off; absent when on, over QUIC, and for runs that predate the field. */
  tailLossProbes?: false;
  run: number;
}

/** A run's cell; a run that predates `configuration.scheduler` is in the cell of what it ran (runSchedulerKey). */
export function cellOf(r: RunResult): CellKey {
  const c = r.configuration;
  const scheduler = runSchedulerKey(c);
  return {
    site: r.site.name,
    network: c.network.name,
    protocol: c.protocol,
    transport: c.transport,
    serverModel: c.serverModel,
    priority: c.priority,
    ...(scheduler === undefined ? {} : { scheduler }),
    ...knobFields(runCongestionKey(c), runTailLossProbeKey(c)),
    run: r.run,
  };
}

/** The optional knob fields of a cell key, present only when they differ from the defaults. */
function knobFields(congestion: string | undefined, tailLossProbes: false | undefined): Pick<CellKey, "congestion" | "tailLossProbes"> {
  return { ...(congestion === undefined ? {} : { congestion }), ...(tailLossProbes === undefined ? {} : { tailLossProbes }) };
}

/**
 * One string per cell, for maps and for finding which cells a resumed sweep still owes. The scheduler
 * is in it only when there is one, and the congestion controller and tail loss probes only when not
 * the defaults, so a cell's id is what it was before each of them.
 */
export function cellId(k: CellKey): string {
  const knobs = [...(k.congestion === undefined ? [] : [`cc=${k.congestion}`]), ...(k.tailLossProbes === false ? ["tlp=off"] : [])];
  return JSON.stringify([k.site, k.network, k.protocol, k.transport, k.serverModel, k.priority, ...(k.scheduler === undefined ? [] : [k.scheduler]), ...knobs, k.run]);
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

/** The scheduler keys a transport's cells run with: one per scheduler the plan gives it, none (one cell) over tcp and quic. */
export function planSchedulerKeys(plan: ExperimentPlan, transport: Transport): (string | undefined)[] {
  return planSchedulers(plan, transport).map((s) => (s ? schedulerKey(s) : undefined));
}

export function plannedRunCount(plan: ExperimentPlan): number {
  const stacks = planStacks(plan).reduce((n, s) => n + planSchedulerKeys(plan, s.transport).length * planTailLossProbeKeys(plan, s.transport).length, 0);
  return plan.sites.length * plan.networks.length * stacks * planCongestionKeys(plan).length * plan.serverModels.length * plan.priorities.length * plan.runs;
}

/**
 * Every cell of the plan, replication by replication: a sweep stopped early has run every cell once
 * before it runs any twice. Within a replication the stacks of one site and network are neighbours,
 * so the configurations an analysis compares finish close together in time.
 */
export function planCells(plan: ExperimentPlan): CellKey[] {
  const cells: CellKey[] = [];
  for (let run = 0; run < plan.runs; run++) {
    for (const network of plan.networks) {
      for (const site of plan.sites) {
        for (const { protocol, transport } of planStacks(plan)) {
          for (const scheduler of planSchedulerKeys(plan, transport)) {
            for (const [congestion, tailLossProbes] of planKnobKeys(plan, transport)) {
              for (const serverModel of plan.serverModels) {
                for (const priority of plan.priorities) {
                  cells.push({ site: site.name, network: network.name, protocol, transport, serverModel, priority, ...(scheduler === undefined ? {} : { scheduler }), ...knobFields(congestion, tailLossProbes), run });
                }
              }
            }
          }
        }
      }
    }
  }
  return cells;
}

/** Each congestion controller and tail-loss-probe setting a transport's cells run with, as cell key values. */
export function planKnobKeys(plan: ExperimentPlan, transport: Transport): [string | undefined, false | undefined][] {
  return planCongestionKeys(plan).flatMap((c) => planTailLossProbeKeys(plan, transport).map((t): [string | undefined, false | undefined] => [c, t]));
}
