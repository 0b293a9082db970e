/**
 * Seed 001 §6.5's modified multipath stack, as a ladder of configurations (Fig 6.24): each step one
 * configuration of pagepath's stacks, each against single-path TCP on the better path (§6.5.1:
 * "We compare against single-path TCP with TLP enabled"), with the second path at 5x the RTT
 * (§6.5.1, Table 6.1) or 1/5 of the bandwidth (§6.5.2, Table 6.2).
 *
 * The thesis built every step into one research MPTCP in ns-3. pagepath's stacks give most of them
 * as they are: out-of-order delivery is multipath QUIC's own (tquic), preemption is the replay
 * server's, the Stream Scheduler is pagepath's (replay/multipath/src/schedulers/stream_scheduler.rs),
 * LIA is the simulator's MPTCP (replay/sim/src/mptcp/coupled.rs). Three steps have no
 * configuration of their own, and the report says why (NOT_RUN).
 */
import type { Client, ExperimentPlan, NetworkGrid, PlannedScheduler, Protocol, TopologyShape, Transport } from "@pagepath/results";

export const MODIFIED_STACK = "modified-stack";

export interface LadderStep {
  /** The plan is `modified-stack-<name>`. */
  name: string;
  /** The curve's label in Fig 6.24, or what this configuration stands for. */
  label: string;
  protocol: Protocol;
  transport: Transport;
  /** Multipath only; the transport's default (the kernel's, for MPTCP) when absent. */
  scheduler?: PlannedScheduler;
  preemption: boolean;
  /** The coupled controller the simulator's MPTCP runs; the kernel's MPTCP has none (uncoupled Reno). */
  coupled?: "lia";
  /** TCP and MPTCP: whether tail loss probes are on (QUIC always has its probe timeout). */
  tailLossProbes: boolean;
  /** The clients that can run it: the simulator's MPTCP alone can couple its subflows. */
  clients: Client[];
}

const BOTH: Client[] = ["emulated", "simulated"];
const STREAM_SCHEDULER: PlannedScheduler = { name: "stream-scheduler", options: { preemption: "on" } };

/** The reference every step is measured against. */
export const SINGLE_PATH: LadderStep = { name: "tcp", label: "TCP HTTP/2 (single path, TLP)", protocol: "h2", transport: "tcp", preemption: false, tailLossProbes: true, clients: BOTH };

/**
 * What multipath QUIC adds over QUIC on one path: tquic's handshake takes one round trip fewer than
 * TCP's and TLS's, a saving the thesis's QUIC-lite over MPTCP did not have, so the QUIC steps are
 * also measured against it.
 */
export const SINGLE_PATH_QUIC: LadderStep = { name: "quic", label: "QUIC HTTP/3 (single path)", protocol: "h3", transport: "quic", preemption: false, tailLossProbes: true, clients: BOTH };

/** Fig 6.24's curves in its order, as far as pagepath's stacks make each one a configuration. */
export const LADDER: LadderStep[] = [
  { name: "mptcp-h2-rtt", label: "MPTCP HTTP/2 RTT (the baseline)", protocol: "h2", transport: "mptcp", preemption: false, coupled: "lia", tailLossProbes: false, clients: BOTH },
  { name: "mptcp-h2-rtt-nolia-tlp", label: "MPTCP HTTP/2 RTT No LIA TLP", protocol: "h2", transport: "mptcp", preemption: false, tailLossProbes: true, clients: ["simulated"] },
  { name: "mpquic-rtt", label: "MP QUIC RTT", protocol: "h3", transport: "mpquic", scheduler: { name: "lowest-rtt" }, preemption: false, tailLossProbes: true, clients: BOTH },
  { name: "mpquic-rtt-preempt", label: "MP QUIC RTT Preempt", protocol: "h3", transport: "mpquic", scheduler: { name: "lowest-rtt" }, preemption: true, tailLossProbes: true, clients: BOTH },
  { name: "mpquic-stream", label: "MP QUIC Stream (the modified stack)", protocol: "h3", transport: "mpquic", scheduler: STREAM_SCHEDULER, preemption: true, tailLossProbes: true, clients: BOTH },
];

/** Table 6.1's baseline and modified columns. */
export const BASELINE_STEP = "mptcp-h2-rtt";
export const MODIFIED_STEP = "mpquic-stream";

/** The thesis's steps that are no configuration here, and why. */
export const NOT_RUN: { label: string; why: string }[] = [
  {
    label: "MPTCP HTTP/2 Stream",
    why: "the Stream Scheduler places a resource's bytes by its size and priority; the thesis's MPTCP was told them by the application (§6.6: each resource marked with its stream ID and priority). pagepath's MPTCP (the kernel's, and the simulator's over smoltcp) carries TLS records of one byte stream and cannot see where a response ends, so the scheduler would see one resource the size of the connection's backlog",
  },
  {
    label: "MP QUIC Stream Retrans",
    why: "over QUIC a lost STREAM frame's bytes go back to their stream and the scheduler places them again like any other, on whichever path it chooses: retransmission on the other path is what MP QUIC Stream already does, not a step of its own",
  },
  {
    label: "MP QUIC Stream No LIA (TLP)",
    why: "tquic's multipath QUIC has no coupled congestion control (each path runs CUBIC on its own) and always has its probe timeout, QUIC's tail loss probe: MP QUIC Stream is already uncoupled and probing. On MPTCP the two steps are measured together in the simulator (MPTCP HTTP/2 RTT No LIA TLP)",
  },
];

/** Fig 6.24's two named regimes (10 Mbit/s 40 ms, 50 Mbit/s 100 ms) and the four cells of Table 6.1 around them. */
export const MODIFIED_STACK_GRID = { rateMbit: [1, 10, 50], rttMs: [40, 100] };
/** Tables 6.1 and 6.2's grid: seven bandwidths x four RTTs. */
export const TABLE_6_1_GRID = { rateMbit: [0.5, 1, 10, 50, 100, 500, 1000], rttMs: [8, 40, 100, 200] };

/** §6.5.1's second path at 5x the RTT and §6.5.2's at 1/5 of the bandwidth, the first path the better one. */
export const MISMATCHES: Record<"rtt" | "bandwidth", TopologyShape> = {
  rtt: { paths: 2, rttFactor: 5 },
  bandwidth: { paths: 2, rateFactor: 0.2 },
};

export interface ModifiedStackOptions {
  client: Client;
  sites: { name: string; graph: string }[];
  runs: number;
  grid: Pick<NetworkGrid, "rateMbit" | "rttMs" | "queueDiscipline" | "rttJitter">;
  mismatches: ("rtt" | "bandwidth")[];
}

/** The single-path reference and every step the client can run, each a plan of its own. */
export function modifiedStackPlans(o: ModifiedStackOptions): { step: LadderStep; plan: ExperimentPlan }[] {
  return [SINGLE_PATH, SINGLE_PATH_QUIC, ...LADDER].filter((s) => s.clients.includes(o.client)).map((step) => ({ step, plan: stepPlan(step, o) }));
}

function stepPlan(step: LadderStep, o: ModifiedStackOptions): ExperimentPlan {
  // Every plan runs the same networks (single-path TCP on the first path of each), so runs pair by
  // site, network and replication across plans.
  const topologies = o.mismatches.map((m) => MISMATCHES[m]);
  const coupled = step.coupled !== undefined && o.client === "simulated";
  const scheduler = step.scheduler && (step.transport === "mpquic" || step.transport === "mptcp") ? { scheduler: { [step.transport]: step.scheduler } } : {};
  return {
    schemaVersion: 1,
    kind: "pagepath-experiment-plan",
    name: `${MODIFIED_STACK}-${step.name}`,
    description: `${step.label}, seed 001 §6.5 (Fig 6.24, Tables 6.1-6.2)`,
    client: o.client,
    baseSeed: 1,
    runs: o.runs,
    sites: o.sites,
    networks: [],
    grid: { ...o.grid, loss: [0], queueBdp: [1.5] },
    topologies,
    protocols: [step.protocol],
    transports: [step.transport],
    serverModels: ["out-of-order"],
    // §6.3: "HTTP/2 with prioritisation based on an omniscient critical path analysis".
    priorities: ["critical-path"],
    chunkSizeBytes: 16384,
    connectionsPerOrigin: { [step.protocol]: 1 },
    metric: "load",
    preemption: step.preemption,
    // The thesis's TCP is New Reno; LIA couples Reno's increase. tquic has no Reno: QUIC runs CUBIC.
    ...(step.transport === "tcp" || step.transport === "mptcp" ? { congestion: coupled ? "lia" : "reno", tailLossProbes: step.tailLossProbes } : {}),
    ...scheduler,
    // Table 6.1's 0.5 Mbit/s loads a large page in more than the default two minutes; virtual
    // minutes cost the simulator little.
    ...(o.client === "simulated" ? { runDetail: "summary" as const, timeoutMs: 600_000 } : {}),
  };
}
