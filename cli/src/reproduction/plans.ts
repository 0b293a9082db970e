import type { ExperimentPlan, NetworkGrid, SchedulerChoice, TcpProfile, TopologyShape } from "@pagepath/results";

/**
 * The three thesis experiments the reproduction report runs, reduced: fewer sites, a 3 x 3 grid of
 * the thesis's bandwidths and RTTs instead of 7 x 4 or 9 x 5, and few runs instead of 50.
 */
export interface ReproductionOptions {
  /** The emulated browser in real time, or the simulator in virtual time (smoltcp's TCP and MPTCP over it). */
  client: "emulated" | "simulated";
  /** Site name and graph path (relative to the plans' folder). */
  sites: { name: string; graph: string }[];
  runs: number;
  grid: Pick<NetworkGrid, "rateMbit" | "rttMs" | "queueDiscipline" | "rttJitter">;
  /**
   * The MPTCP scheduler of the MPTCP experiments: the kernel's (emulated), the kernel's or one of
   * pagepath's (simulated); the kernel's default when absent.
   */
  mptcpScheduler?: SchedulerChoice;
  /** The servers' congestion controller in every experiment (the kernel's); cubic when absent. */
  congestion?: string;
  /** TCP tail loss probes in every experiment; on when absent. */
  tailLossProbes?: boolean;
  /** The simulator's TCP (client simulated); linux when absent. */
  tcpProfile?: TcpProfile;
  /** The simulator's clock tick over TCP and MPTCP, µs (client simulated); its default when absent. */
  clockTickUs?: number;
}

export const DEFAULT_GRID = { rateMbit: [2, 10, 50], rttMs: [20, 100, 200] };
/** Seed 001 §3.7.7.3: each run adds to the server links' delays a δ drawn from ±0.1 of them. */
export const THESIS_RTT_JITTER = 0.1;
/** Seed 001 Table 4.1: its 10 bandwidths x 5 RTTs. */
export const THESIS_GRID = { rateMbit: [0.5, 1, 2.5, 5, 10, 25, 50, 100, 500, 1000], rttMs: [8, 40, 100, 200, 400] };

export interface ReproducedExperiment {
  plan: ExperimentPlan;
  /** The thesis figure it stands beside, and what that figure showed. */
  figure: string;
  /** Selectors for `pagepath analyze`: the baseline and the configuration compared with it. */
  baseline: string;
  candidate: string;
}

export function reproductionPlans(o: ReproductionOptions): ReproducedExperiment[] {
  const common = {
    schemaVersion: 1 as const,
    kind: "pagepath-experiment-plan" as const,
    client: o.client,
    baseSeed: 1,
    runs: o.runs,
    sites: o.sites,
    serverModels: ["out-of-order" as const],
    chunkSizeBytes: 16384,
    metric: "load" as const,
    // The thesis's grid in virtual time is hundreds of thousands of runs, and its report reads only
    // their metrics; real replays are few enough to keep whole, for the viewer's timelines.
    ...(o.client === "simulated" ? { runDetail: "summary" as const } : {}),
    ...(o.clockTickUs === undefined ? {} : { clockTickUs: o.clockTickUs }),
  };
  // PCP's buffer, 1.5 bandwidth-delay products, and no random loss: drops come from the queue alone
  // (RED's, with --links thesis).
  const grid = { ...o.grid, loss: [0], queueBdp: [1.5] };
  const twoPaths = (rttFactor: number): TopologyShape[] => [{ paths: 2, ...(rttFactor === 1 ? {} : { rttFactor }) }];
  // Only when asked, so that the plans of a reproduction begun without them resume unchanged.
  const scheduler = o.mptcpScheduler === undefined ? {} : { scheduler: { mptcp: o.mptcpScheduler } };
  const knobs = { ...(o.congestion === undefined ? {} : { congestion: o.congestion }), ...(o.tailLossProbes === undefined ? {} : { tailLossProbes: o.tailLossProbes }) };
  const experiments: ReproducedExperiment[] = [
    {
      figure: "Figs 4.15-4.16",
      baseline: "protocol=h1",
      candidate: "protocol=h2",
      plan: {
        ...common,
        name: "h1-vs-h2",
        description: "HTTP/1.1 with 6 connections per origin against HTTP/2 with one, no prioritisation, one path (seed 001 Figs 4.15-4.16)",
        networks: [],
        grid,
        protocols: ["h1", "h2"],
        transports: ["tcp"],
        priorities: ["none"],
        connectionsPerOrigin: { h1: 6, h2: 1 },
        ...knobs,
        ...(o.tcpProfile === undefined ? {} : { tcpProfile: o.tcpProfile }),
      },
    },
    {
      figure: "Fig 6.4",
      baseline: "transport=tcp",
      candidate: "transport=mptcp",
      plan: {
        ...common,
        name: "mptcp-equal-paths",
        description: "HTTP/2 with critical-path prioritisation over MPTCP on two equal paths against single-path TCP on the first (seed 001 Fig 6.4)",
        networks: [],
        grid,
        topologies: twoPaths(1),
        protocols: ["h2"],
        transports: ["tcp", "mptcp"],
        priorities: ["critical-path"],
        connectionsPerOrigin: { h2: 1 },
        ...scheduler,
        ...knobs,
      },
    },
    {
      figure: "Fig 6.6",
      baseline: "transport=tcp",
      candidate: "transport=mptcp",
      plan: {
        ...common,
        name: "mptcp-rtt-mismatch",
        description: "HTTP/2 over MPTCP where the second path has 5x the first's RTT, against single-path TCP on the first, faster path (seed 001 Fig 6.6)",
        networks: [],
        grid,
        topologies: twoPaths(5),
        protocols: ["h2"],
        transports: ["tcp", "mptcp"],
        priorities: ["critical-path"],
        connectionsPerOrigin: { h2: 1 },
        ...scheduler,
        ...knobs,
      },
    },
  ];
  return experiments;
}
