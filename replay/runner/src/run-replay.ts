import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, statSync } from "node:fs";
import { release } from "node:os";
import { basename, dirname, join, relative, resolve } from "node:path";
import { DEFAULT_CONGESTION, lcpElementSummary, transportRefusal, validateRunResult, RUN_RESULT_SCHEMA_VERSION, type Metrics, type PathBytes, type RunConfiguration, type RunResult } from "@pagepath/results";
import { FILES, TOOL_VERSION } from "@pagepath/profiler";
import { NET_BINARY } from "./binaries.js";
import { runChromiumClient } from "./chromium-client.js";
import type { ClientReport } from "./client-report.js";
import { runEmulatedClient } from "./emulated-client.js";
import { checkReplayInputs } from "./graph-check.js";
import { defaultScheduler, MPTCP_DEFAULT } from "./multipath-scheduler.js";
import { setMptcpScheduler } from "./mptcp-scheduler.js";
import { backupPeerArgs, serverArgs } from "./server-args.js";
import { congestionWarnings } from "./congestion-ran.js";
import { resolveTransportKnobs } from "./transport-knobs.js";
import { redirectChain, withRequestPaths } from "./request-paths.js";
import { startReplayServer } from "./server-process.js";
import { counterDelta, pathCounters, settleMs, type Topology } from "./topology.js";

export interface ReplayRun {
  graphFile: string;
  /** The recording to serve; by default the graph's own (see checkReplayInputs). */
  recording?: string;
  client: RunResult["client"];
  /** The run's configuration; `network` is taken from the topology. */
  configuration: Omit<RunConfiguration, "network">;
  topology: Topology;
  seed: number;
  timeoutMs: number;
  /** Where the servers write their logs (origins.json, connections.jsonl, ...). */
  serverOut: string;
  /** Keep the servers' qlog of each QUIC connection in serverOut/qlog/ (default off: they are large). */
  qlog?: boolean;
  /** Chromium only: write the recording the client made of its load to this folder. */
  keepRecording?: string;
  /** The file the result will be written to: site.graph is relative to its folder. */
  resultFile: string;
  experiment?: string | null;
  /** The site's name in its plan; by default the graph file's name. */
  site?: string;
  run?: number;
  /** "summary": leave node timings and requests out of the result (a plan's runDetail). */
  detail?: "full" | "summary";
}

/**
 * One replay of one page: the servers in the topology's server namespace, one client in its
 * client namespace, and the run result (validated) of what happened. Bad input (a transport the client
 * does not have, a graph that fails validation, fetches missing from the archive, a topology that is
 * not up) throws before anything starts; a stalled load comes back as an incomplete result.
 */
export async function runReplay(r: ReplayRun): Promise<RunResult> {
  const refusal = transportRefusal(r.client, r.configuration.transport);
  if (refusal) throw new Error(`the ${r.client} client over ${r.configuration.transport}: ${refusal}`);
  const { graph, recording } = checkReplayInputs(r.graphFile, r.recording);
  // Undefined (a caller that did not choose) is the transport's default; null is no choice of path.
  const scheduler = r.configuration.scheduler === undefined ? defaultScheduler(r.configuration.transport) : r.configuration.scheduler;
  // Recorded always, defaults included: a result says which controller it asked for, not "whatever the default was then".
  const knobs = resolveTransportKnobs(r.configuration.transport, r.configuration.congestion, r.configuration.tailLossProbes ?? undefined);
  const configuration: RunConfiguration = { ...r.configuration, scheduler, ...knobs, network: r.topology.network };
  mkdirSync(r.serverOut, { recursive: true });
  const serve = [recording, "--out", r.serverOut, "--first-address", "10.200.1.1", ...(r.qlog ? [] : ["--no-qlog"]), ...serverArgs(configuration, r.graphFile, r.seed), ...backupPeerArgs(configuration, r.topology.clientAddresses)];
  if (configuration.transport === "mptcp") await setMptcpScheduler(r.topology.name, scheduler?.name ?? MPTCP_DEFAULT);
  const server = await startReplayServer(serve, [NET_BINARY, "exec", r.topology.name, "server", "--"]);
  let report: ClientReport;
  let paths;
  try {
    const before = await pathCounters(r.topology.name);
    const originsFile = join(r.serverOut, "origins.json");
    if (r.client === "emulated") {
      report = await runEmulatedClient({ graphFile: r.graphFile, originsFile, configuration, topology: r.topology, timeoutMs: r.timeoutMs });
    } else {
      const nameMap = JSON.parse(readFileSync(originsFile, "utf8"));
      report = await runChromiumClient({ url: graph.source.url, nameMap, configuration, topology: r.topology, timeoutMs: r.timeoutMs, keepRecording: r.keepRecording });
    }
    await new Promise((ok) => setTimeout(ok, settleMs(configuration.network)));
    paths = counterDelta(before, await pathCounters(r.topology.name));
  } finally {
    await server.stop();
  }
  return assembleRunResult(r, configuration, report, paths, graph, recording);
}

/**
 * The run result of what a client reported and the paths carried, with what each path carried of
 * each response from the servers' logs (written once they stopped); validated.
 */
export function assembleRunResult(
  r: Pick<ReplayRun, "graphFile" | "client" | "serverOut" | "resultFile" | "experiment" | "site" | "run" | "seed" | "timeoutMs" | "topology" | "detail">,
  configuration: RunConfiguration,
  report: ClientReport,
  paths: PathBytes[],
  graph: ReturnType<typeof checkReplayInputs>["graph"],
  recording: string,
): RunResult {
  const summary = r.detail === "summary";
  const result: RunResult = {
    schemaVersion: RUN_RESULT_SCHEMA_VERSION,
    kind: "pagepath-run",
    experiment: r.experiment ?? null,
    site: { name: r.site ?? siteName(r.graphFile), graph: relative(dirname(resolve(r.resultFile)), resolve(r.graphFile)), graphSha256: fileSha256(r.graphFile), recordingSha256: fileSha256(join(recording, FILES.archive)) },
    client: r.client,
    configuration,
    run: r.run ?? 0,
    seed: r.seed,
    versions: { pagepath: TOOL_VERSION, kernel: release(), ...report.versions },
    startedAt: report.startedAt,
    status: report.status,
    error: report.error,
    timeoutMs: r.timeoutMs,
    metrics: withGraphLcpElement(report.metrics, graph),
    ...(summary ? { detail: "summary" as const } : {}),
    nodeTimings: summary ? null : report.nodeTimings,
    connections: report.connections,
    requests: summary ? null : report.requests ? withRequestPaths(report.requests, r.serverOut, r.topology.clientAddresses, report.startedAt, redirectChain(graph)) : report.requests,
    paths,
    warnings: [...report.warnings, ...congestionWarnings(r.serverOut, configuration.congestion ?? DEFAULT_CONGESTION)],
  };
  const problems = validateRunResult(result, r.resultFile);
  if (problems.length > 0) throw new Error(`the run result does not validate (a bug in pagepath):\n${problems.join("\n")}`);
  return result;
}

/**
 * A client that does not name its LCP element (the emulated browser, the simulator: they paint
 * the graph's) gets the graph's `lcp` marker's, where it painted one; Chromium names its own.
 */
function withGraphLcpElement(metrics: Metrics, graph: ReturnType<typeof checkReplayInputs>["graph"]): Metrics {
  if (metrics.largestContentfulPaintElement !== undefined) return metrics;
  const marker = graph.nodes.find((n) => n.kind === "lcp");
  return { ...metrics, largestContentfulPaintElement: metrics.largestContentfulPaintMs == null ? null : lcpElementSummary(marker?.lcp) };
}

/** The corpus name of a graph (its file name), as run-result.md allows in site.name. */
export function siteName(graphFile: string): string {
  return basename(graphFile, ".json").replace(/[^A-Za-z0-9._-]/g, "-");
}

/** Digests by file, kept while the file's size and time stay: a sweep records the same graph's digest in every run. */
const digests = new Map<string, { stamp: string; digest: string }>();

export function fileSha256(file: string): string {
  const path = resolve(file);
  const s = statSync(path);
  const stamp = `${s.mtimeMs}:${s.size}`;
  const kept = digests.get(path);
  if (kept?.stamp === stamp) return kept.digest;
  const digest = createHash("sha256").update(readFileSync(path)).digest("hex");
  digests.set(path, { stamp, digest });
  return digest;
}
