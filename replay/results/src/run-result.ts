/**
 * The run result format (DESIGN.md contract 3), as TypeScript types: what one replay of one page
 * writes. The JSON Schema is replay/results/schema/run-result.schema.json and the written description
 * docs/formats/run-result.md; bump RUN_RESULT_SCHEMA_VERSION on any incompatible change. Written by the
 * replay's clients (the Rust emulated browser and the Chromium client), read by the viewer.
 *
 * Every time is ms since the run's start: the moment the client begins fetching the main document,
 * the same origin as a graph's times.
 */
export const RUN_RESULT_SCHEMA_VERSION = 1;

export const PROTOCOLS = ["h1", "h2", "h3"] as const;
export const TRANSPORTS = ["tcp", "mptcp", "quic", "mpquic"] as const;
export const SERVER_MODELS = ["serial", "parallel", "out-of-order"] as const;
export const PRIORITY_SCHEMES = ["none", "browser", "mime", "critical-path", "depth"] as const;
export const QUEUE_DISCIPLINES = ["droptail", "red"] as const;

export type Protocol = (typeof PROTOCOLS)[number];
export type Transport = (typeof TRANSPORTS)[number];
export type ServerModel = (typeof SERVER_MODELS)[number];
export type PriorityScheme = (typeof PRIORITY_SCHEMES)[number];
export type Client = "emulated" | "chromium";

/** HTTP/3 runs only over QUIC; HTTP/1.1 and HTTP/2 only over TCP. */
export function transportsFor(protocol: Protocol): readonly Transport[] {
  return protocol === "h3" ? ["quic", "mpquic"] : ["tcp", "mptcp"];
}

export interface Queue {
  discipline: (typeof QUEUE_DISCIPLINES)[number];
  /** Bottleneck buffer in 1500-byte packets, as the link emulator used it (a plan's BDP multiple resolved). */
  packets: number;
}

/** One emulated path between client and servers; up is client to server. */
export interface PathConfig {
  upMbps: number;
  downMbps: number;
  /** Base round-trip time, without queueing. */
  rttMs: number;
  /** Probability that the link drops a packet at random, 0..1, on top of queue drops. */
  loss: number;
  queue: Queue;
}

export interface NetworkConfig {
  /** The plan's name for this network; a standalone run names it freely. */
  name: string;
  /** Path 0 first; a single-path network has one. */
  paths: PathConfig[];
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
}

export interface Metrics {
  domContentLoadedMs: number | null;
  loadMs: number | null;
  /** When the last emulated node of the graph finished. */
  graphCompleteMs: number | null;
}

export interface NodeTiming {
  nodeId: string;
  start: number;
  end: number;
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
  status: "ok" | "failed";
  /** Why the run failed; null when it is ok. */
  error: string | null;
  metrics: Metrics;
  /** Per emulated node; null when the client cannot tell (Chromium). */
  nodeTimings: NodeTiming[] | null;
  connections: ConnectionRecord[];
  /** One entry per network path, in path order. */
  paths: PathBytes[];
  warnings: string[];
}
