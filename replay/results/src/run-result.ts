/**
 * The run result format (DESIGN.md contract 3), as TypeScript types: what one replay of one page
 * writes. The JSON Schema is formats/schema/run-result.schema.json and the written description
 * docs/formats/run-result.md; bump RUN_RESULT_SCHEMA_VERSION on any incompatible change. Written by the
 * replay's clients (the Rust emulated browser and the Chromium client), read by the viewer.
 *
 * Every time is ms since the run's start: the moment the client begins fetching the main document,
 * the same origin as a graph's times.
 *
 * Optional fields (`?`) were added to schemaVersion 1 later: results written before them stay valid,
 * so readers must treat them as possibly absent.
 */
import type { ResourcePhases as RequestPhases } from "@pagepath/graph-builder";

export const RUN_RESULT_SCHEMA_VERSION = 1;

export const PROTOCOLS = ["h1", "h2", "h3"] as const;
export const TRANSPORTS = ["tcp", "mptcp", "quic", "mpquic"] as const;
export const SERVER_MODELS = ["serial", "parallel", "out-of-order"] as const;
export const PRIORITY_SCHEMES = ["none", "browser", "mime", "critical-path", "depth"] as const;
export const QUEUE_DISCIPLINES = ["droptail", "red"] as const;
export const HTTP1_MODES = ["1.0", "1.1", "1.1-pipelined"] as const;
export const WAIT_FOR = ["dcl", "load", "graph"] as const;
export const RUN_STATUSES = ["ok", "failed", "incomplete"] as const;

export type Protocol = (typeof PROTOCOLS)[number];
export type Transport = (typeof TRANSPORTS)[number];
export type ServerModel = (typeof SERVER_MODELS)[number];
export type PriorityScheme = (typeof PRIORITY_SCHEMES)[number];
/**
 * emulated: the graph-driven emulated browser over real connections; chromium: real Chromium;
 * simulated: the same emulated browser, servers and QUIC stack over simulated links in virtual
 * time (pagepath simulate).
 */
export type Client = "emulated" | "chromium" | "simulated";
/** Clients that run the emulated browser's model, and so time every graph node. */
export const modelClient = (c: Client): boolean => c !== "chromium";
/** "1.0": a connection per request; "1.1": keep-alive; "1.1-pipelined": keep-alive with pipelining. */
export type Http1Mode = (typeof HTTP1_MODES)[number];
/**
 * ok: the load finished; failed: it broke off (client or server error); incomplete: it stalled (a
 * request never answered, a path died) and the client ended it at its timeout.
 */
export type RunStatus = (typeof RUN_STATUSES)[number];

/** HTTP/3 runs only over QUIC; HTTP/1.1 and HTTP/2 only over TCP. */
export function transportsFor(protocol: Protocol): readonly Transport[] {
  return protocol === "h3" ? ["quic", "mpquic"] : ["tcp", "mptcp"];
}

/**
 * How a run's protocol and transport are named where several are compared: the protocol alone over
 * its usual transport (h2, h3), "h2/mptcp" over another.
 */
export function stackLabel({ protocol, transport }: { protocol: Protocol; transport: Transport }): string {
  return transport === transportsFor(protocol)[0] ? protocol : `${protocol}/${transport}`;
}

/**
 * Why `client` cannot run over `transport`, or null when it can. Chromium has no multipath QUIC: asked
 * for mpquic it would load over single-path QUIC, and the run would be labelled multipath.
 */
export function transportRefusal(client: Client, transport: Transport): string | null {
  if (client === "chromium" && transport === "mpquic") return "Chromium has no multipath QUIC";
  return null;
}

export interface Queue {
  discipline: (typeof QUEUE_DISCIPLINES)[number];
  /** Bottleneck buffer in 1500-byte packets, as the link emulator used it (a plan's BDP multiple resolved). */
  packets: number;
}

/**
 * One path of the network. Null where the run could not know: a trace-driven link has no one rate,
 * and a topology brought up outside the run (`--net`) does not say its loss or queue.
 */
export interface PathConfig {
  upMbps: number | null;
  downMbps: number | null;
  /** Base round-trip time, without queueing. */
  rttMs: number;
  /** Probability that the link drops a packet at random, 0..1, on top of queue drops. */
  loss: number | null;
  queue: Queue | null;
  /** Mahimahi delivery traces (relative to the plan's folder) that set the capacity; rates are then null. Absent before the field. */
  trace?: { uplink: string; downlink: string } | null;
  /** Kept as backup: only for when no other path is usable. Absent before the field, and when false. */
  backup?: boolean;
  /**
   * The run drew each direction's delay uniformly from rttMs / 2 x (1 ± rttJitter), once, from its
   * seed (seed 001 §3.7.7.3). Absent: rttMs exactly.
   */
  rttJitter?: number;
}

export interface NetworkConfig {
  /** The plan's name for this network; a standalone run names it freely. */
  name: string;
  /** Path 0 first; a single-path network has one. */
  paths: PathConfig[];
}

/** The simulator's TCP settings: `linux`, the kernel's defaults; `thesis`, seed 001 Table 3.3's ns-3 TCP. */
export type TcpProfile = "linux" | "thesis";
/**
 * The simulator's clock tick over tcp and mptcp, µs, when a run does not say (replay/sim's
 * CLOCK_TICK): the tick it was calibrated at (docs/simulator.md, *The clock's tick*).
 */
export const DEFAULT_CLOCK_TICK_US = 1000;
/** Transports whose simulated world takes a clock tick: QUIC's moves to each event's exact µs. */
export const TICKED_TRANSPORTS: readonly string[] = ["tcp", "mptcp"];
/** A run configuration's clockTickUs for a tick asked for: none over QUIC, nor when none was asked for. */
export function clockTickField(transport: string, tickUs: number | undefined): { clockTickUs?: number } {
  return tickUs !== undefined && TICKED_TRANSPORTS.includes(transport) ? { clockTickUs: tickUs } : {};
}

export interface RunConfiguration {
  protocol: Protocol;
  transport: Transport;
  network: NetworkConfig;
  serverModel: ServerModel;
  priority: PriorityScheme;
  /** Bytes a server writes of one response before its scheduler picks a stream again. */
  chunkSizeBytes: number;
  /** Connections the client may open to one origin; null when the client decides (Chromium). */
  connectionsPerOrigin: number | null;
  /** How HTTP/1 requests share connections; only with protocol h1. Absent in results made before the field. */
  http1?: Http1Mode;
  /** How the emulated browser was set up; null for Chromium runs. Absent in results made before the field. */
  emulation?: EmulationSettings | null;
  /** Whether the servers switched to a more urgent response at every chunk. Absent in results made before the field. */
  preemption?: boolean;
  /** The simulator's TCP settings (simulated runs over tcp); absent elsewhere and before the field (linux). */
  tcpProfile?: TcpProfile;
  /**
   * How far the simulator's clock moved at least, µs (simulated runs over tcp and mptcp), as the
   * run asked for it; absent elsewhere, before the field and when none was asked for (then it
   * was DEFAULT_CLOCK_TICK_US).
   */
  clockTickUs?: number;
  /**
   * The multipath scheduler: mpquic's (a pagepath name or tquic's own minrtt/roundrobin), mptcp's kernel
   * scheduler; null for single-path transports. Absent in results made before the field.
   */
  scheduler?: SchedulerChoice | null;
  /**
   * The congestion controller the servers were asked to run (`--congestion`, cubic by default):
   * the kernel's over tcp and mptcp, tquic's over quic and mpquic. Absent in results made before
   * the field, whose TCP connections ran the host's default.
   */
  congestion?: string;
  /**
   * TCP tail loss probes in the servers' namespace (`--tail-loss-probes`); null over quic and mpquic,
   * which have no such switch. Absent in results made before the field (they ran with them on).
   */
  tailLossProbes?: boolean | null;
}

export interface SchedulerChoice {
  name: string;
  /** The --scheduler-opt KEY=VALUE pairs as given; {} when none. */
  options: Record<string, string>;
}

export interface EmulationSettings {
  /** Whether the preloader fetched resources the graph marks as preloaded before their parser reached them. */
  preloader: boolean;
  /** Computation durations are the graph's multiplied by this (above 0): 2 is a CPU twice as slow. */
  cpuFactor: number;
  /** The event after which the emulated browser stopped: DOMContentLoaded, load, or the whole graph. */
  waitFor: (typeof WAIT_FOR)[number];
}

export interface Metrics {
  domContentLoadedMs: number | null;
  loadMs: number | null;
  /** When the last emulated node of the graph finished. */
  graphCompleteMs: number | null;
  /** The main frame's first and largest contentful paints. Absent in results made before them. */
  firstContentfulPaintMs?: number | null;
  largestContentfulPaintMs?: number | null;
  /** Why largestContentfulPaintMs is null when the client knows (the page painted no LCP candidate); null otherwise. */
  largestContentfulPaintMissing?: string | null;
  /**
   * The element whose paint largestContentfulPaintMs is: Chromium's last LCP candidate, the
   * emulated browser's graph's `lcp` marker. Null without an LCP; absent in older results.
   */
  largestContentfulPaintElement?: LcpElementSummary | null;
}

/** An LCP element as run results name it: enough to tell whether two clients painted the same one. */
export interface LcpElementSummary {
  type: "image" | "text";
  /** The DOM node as Chromium names it, e.g. `IMG`, `P class='lead'`. */
  nodeName: string;
  /** The image's URL; null for text. */
  url: string | null;
  /** Painted area in CSS pixels. */
  size: number;
}

export interface NodeTiming {
  nodeId: string;
  start: number;
  end: number;
}

/** One fetch the client made; what the client could not tell is null. */
export interface RequestRecord {
  url: string;
  /** The graph node the fetch stands for; null when the client cannot tell (Chromium) or none does. */
  nodeId: string | null;
  /** HTTP status; null without a response. */
  status: number | null;
  /** Bytes of response body received. */
  bodyBytes: number | null;
  startMs: number;
  /** null: not finished when the run ended. */
  endMs: number | null;
  /** The id of the ConnectionRecord it went over. */
  connection: string | null;
  /**
   * Per path that carried any of the response, in path order: what the server sent on it and when; null
   * when not measured (MPTCP, tquic's own schedulers). Absent in results made before the field.
   */
  paths?: RequestPathBytes[] | null;
  /**
   * DevTools' waterfall phases of the fetch, ms on the run's clock, in order and not overlapping (see
   * run-result.md); a phase the client cannot tell is null; null when it tells none. Absent in
   * results made before the field.
   */
  phases?: RequestPhases | null;
}

/** As the graph's resource phases (graph.md), on the run's clock. */
export type { PhaseSpan, ResourcePhases as RequestPhases } from "@pagepath/graph-builder";

export interface RequestPathBytes {
  /** Index into configuration.network.paths. */
  path: number;
  /** Response payload bytes the server sent on the path for this request, retransmissions and redundant copies included. */
  bytes: number;
  /** Packets that carried them; null when not known (TCP). */
  packets: number | null;
  /** When the first and the last of them left the server, ms since the run's start. */
  firstMs: number;
  lastMs: number;
}

/** Bytes on the wire (IP packets, headers and retransmissions included); null when not measured. */
export interface PathBytes {
  path: number;
  bytesUp: number | null;
  bytesDown: number | null;
}

export interface ConnectionRecord {
  id: string;
  /** scheme://host:port the connection served. */
  origin: string;
  protocol: Protocol;
  transport: Transport;
  openedMs: number;
  /** null: still open when the run ended. */
  closedMs: number | null;
  paths: PathBytes[];
}

export interface RunResult {
  schemaVersion: typeof RUN_RESULT_SCHEMA_VERSION;
  kind: "pagepath-run";
  /** The experiment plan this run belongs to (its name), or null for a standalone run. */
  experiment: string | null;
  site: {
    name: string;
    /** The graph file replayed, relative to the directory of the file holding this result. */
    graph: string;
    /** SHA-256 of the graph file's bytes, so a result is tied to exactly the graph it replayed. */
    graphSha256: string;
    /**
     * SHA-256 of the served recording's archive.json, which names every body by its SHA-256: what
     * the servers answered, whichever graph was built from it. Absent in results made before it.
     */
    recordingSha256?: string;
  };
  client: Client;
  configuration: RunConfiguration;
  /** Replication number within the plan cell, from 0. */
  run: number;
  seed: number;
  /** Component versions: `pagepath` always, others (client, servers, kernel, QUIC stack) as known. */
  versions: { pagepath: string } & Record<string, string>;
  /** Wall-clock time of the run's start, ISO 8601. */
  startedAt: string;
  status: RunStatus;
  /** Why the run failed or stalled (and what it was waiting for); null exactly when it is ok. */
  error: string | null;
  /** The timeout the client ran with. Absent in results made before the field. */
  timeoutMs?: number;
  metrics: Metrics;
  /** "summary" when the plan left node timings and requests out (ExperimentPlan.runDetail). */
  detail?: "summary";
  /** Per emulated node; null when the client cannot tell (Chromium) or in a summary; partial on an incomplete run. */
  nodeTimings: NodeTiming[] | null;
  /** One per fetch, in the order the client started them; null or absent when not recorded. */
  requests?: RequestRecord[] | null;
  connections: ConnectionRecord[];
  /** One entry per network path, in path order. */
  paths: PathBytes[];
  warnings: string[];
}
