import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { release, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import {
  cellSeed,
  DEFAULT_CONGESTION,
  DEFAULT_RUN_TIMEOUT_MS,
  hasTailLossProbes,
  plannedScheduler,
  RUN_RESULT_SCHEMA_VERSION,
  clockTickField,
  runsFileFor,
  type CellKey,
  type ExperimentPlan,
  type NetworkConfig,
  type RunConfiguration,
  type RunResult,
} from "@pagepath/results";
import { TOOL_VERSION } from "@pagepath/profiler";
import { atProcessEnd } from "@pagepath/temp-dirs";
import { fileSha256, runReplay } from "../run-replay.js";
import { runSimulation } from "../simulate.js";
import { keptTopology, releaseTopology } from "./kept-topology.js";

export interface CellRun {
  plan: ExperimentPlan;
  /** The resolved plan, whose folder holds the runs file, the graphs' relative paths and the logs. */
  planFile: string;
  cell: CellKey;
  /** Names this run's topology: distinct for runs at the same time on one machine, [a-z0-9]{1,8}. */
  tag: string;
  /**
   * Take the topology down after the run instead of keeping it for the worker's next: a queue
   * worker's (it may be killed while idle) and a benchmark's reference.
   */
  freshTopology?: boolean;
}

/**
 * One cell of a plan in its worker's topology, given the cell's links and seed as if brought up
 * afresh (kept-topology.ts): the seed drives the emulator's randomness, so a cell replays the same
 * whichever worker runs it and whatever ran before it. The caller takes the topology down when
 * its worker is done (releaseKeptTopologies). A real
 * run that fails is tried once more; a simulated one would fail again the same way (the simulator
 * is deterministic), so it is not. What comes back is the run result, ok, incomplete or failed: this
 * does not throw because a run went wrong.
 */
export async function runCell(c: CellRun): Promise<RunResult> {
  const first = await attempt(c);
  if (first.status !== "failed" || c.plan.client === "simulated") return first;
  const second = await attempt(c);
  return { ...second, warnings: [...second.warnings, `retried once: the first attempt failed: ${first.error}`] };
}

async function attempt(c: CellRun): Promise<RunResult> {
  const { plan, cell } = c;
  const network = plan.networks.find((n) => n.name === cell.network)!;
  const graphFile = siteGraph(c);
  const resultFile = runsFileFor(c.planFile);
  const logs = join(dirname(c.planFile), "logs", logName(cell));
  // A simulation writes its servers' logs into its worker's own scratch folder; a run that went
  // wrong copies them to its cell's name.
  const simulated = plan.client === "simulated";
  const serverOut = simulated ? workerLogs(c.tag) : logs;
  const topologyName = cellTopologyName(c.tag);
  const run = {
    graphFile,
    configuration: cellConfiguration(plan, cell),
    seed: cellSeed(plan, cell.run),
    timeoutMs: plan.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS,
    serverOut,
    resultFile,
    experiment: plan.name,
    site: cell.site,
    run: cell.run,
    detail: plan.runDetail ?? "full",
  };
  try {
    let result: RunResult;
    if (plan.client === "simulated") {
      // Virtual time needs no topology: the network's paths are simulated (pagepath-sim).
      result = (await runSimulation({ ...run, network })).result;
    } else {
      const topology = await keptTopology(topologyName, network, run.seed, dirname(c.planFile));
      result = await runReplay({ ...run, client: plan.client, topology });
      if (result.status !== "ok" || c.freshTopology) await releaseTopology(topologyName);
    }
    // The servers' logs explain a run that went wrong; for one that went right they are only bulk.
    if (result.status !== "ok" && simulated) keepLogs(serverOut, logs);
    else if (result.status === "ok" && !simulated) rmSync(serverOut, { recursive: true, force: true });
    return result;
  } catch (e) {
    if (simulated) keepLogs(serverOut, logs);
    // Also after a failed bring-up, which may have left part of the topology behind.
    else await releaseTopology(topologyName);
    return failedRunResult(c, network, (e as Error).message);
  }
}

const scratch = new Map<string, string>();

/**
 * The folder a worker's simulations write their servers' logs into, one run after another: in memory
 * where the machine has a RAM file system. On ext4, once many files were deleted, making one takes
 * half a millisecond (it searches for an inode not recently freed), and a load writes ten: a third
 * of a simulated load of HTTP/1.1.
 */
export function workerLogs(tag: string): string {
  let dir = scratch.get(tag);
  if (!dir) {
    const memory = "/dev/shm";
    dir = mkdtempSync(join(existsSync(memory) ? memory : tmpdir(), `pagepath-sim-${tag}-`));
    scratch.set(tag, dir);
  }
  return dir;
}

/** Removes the worker's scratch folder, if it made one. */
export function dropWorkerLogs(tag: string): void {
  const dir = scratch.get(tag);
  if (dir) rmSync(dir, { recursive: true, force: true });
  scratch.delete(tag);
}

// Also on Ctrl-C: the folders are in memory.
atProcessEnd(() => [...scratch.keys()].forEach(dropWorkerLogs));

function keepLogs(from: string, to: string): void {
  if (!existsSync(from)) return;
  rmSync(to, { recursive: true, force: true });
  cpSync(from, to, { recursive: true });
}

/** The topology a run with this tag brings up: what a stop that abandons runs must take down. */
export function cellTopologyName(tag: string): string {
  return `x${tag}`;
}

/** The configuration a cell runs with: the plan's fixed settings and the cell's axis values. */
export function cellConfiguration(plan: ExperimentPlan, cell: CellKey): Omit<RunConfiguration, "network"> {
  const emulated = plan.client !== "chromium";
  return {
    protocol: cell.protocol,
    transport: cell.transport,
    serverModel: cell.serverModel,
    priority: cell.priority,
    chunkSizeBytes: plan.chunkSizeBytes,
    connectionsPerOrigin: plan.connectionsPerOrigin[cell.protocol] ?? null,
    ...(cell.protocol === "h1" ? { http1: "1.1" as const } : {}),
    emulation: emulated ? { preloader: true, cpuFactor: 1, waitFor: plan.metric ?? "load" } : null,
    preemption: plan.preemption ?? false,
    ...(plan.client === "simulated" && plan.tcpProfile !== undefined && cell.transport === "tcp" ? { tcpProfile: plan.tcpProfile } : {}),
    ...(plan.client === "simulated" ? clockTickField(cell.transport, plan.clockTickUs) : {}),
    scheduler: cellScheduler(plan, cell),
    congestion: cell.congestion ?? DEFAULT_CONGESTION,
    tailLossProbes: hasTailLossProbes(cell.transport) ? cell.tailLossProbes ?? true : null,
  };
}

/** The cell's scheduler, explicit even when the plan names none, so that what runs is what the cell key says. */
function cellScheduler(plan: ExperimentPlan, cell: CellKey): RunConfiguration["scheduler"] {
  const s = plannedScheduler(plan, cell.transport, cell.scheduler);
  if (s === undefined) throw new Error(`cell ${logName(cell)}: the plan has no ${cell.transport} scheduler ${JSON.stringify(cell.scheduler)}`);
  return s;
}

/** A run that could not be made, recorded so that it is counted and reported rather than lost. */
export function failedRunResult(c: CellRun, network: NetworkConfig, error: string): RunResult {
  const graphFile = siteGraph(c);
  const graph = c.plan.sites.find((s) => s.name === c.cell.site)!.graph;
  return {
    schemaVersion: RUN_RESULT_SCHEMA_VERSION,
    kind: "pagepath-run",
    experiment: c.plan.name,
    site: { name: c.cell.site, graph, graphSha256: existsSync(graphFile) ? fileSha256(graphFile) : "0".repeat(64) },
    client: c.plan.client,
    configuration: { ...cellConfiguration(c.plan, c.cell), network },
    run: c.cell.run,
    seed: cellSeed(c.plan, c.cell.run),
    versions: { pagepath: TOOL_VERSION, kernel: release() },
    startedAt: new Date().toISOString(),
    status: "failed",
    error,
    timeoutMs: c.plan.timeoutMs ?? DEFAULT_RUN_TIMEOUT_MS,
    metrics: { domContentLoadedMs: null, loadMs: null, graphCompleteMs: null },
    nodeTimings: null,
    requests: null,
    connections: [],
    paths: network.paths.map((_, path) => ({ path, bytesUp: null, bytesDown: null })),
    warnings: [],
  };
}

function siteGraph(c: CellRun): string {
  return resolve(dirname(c.planFile), c.plan.sites.find((s) => s.name === c.cell.site)!.graph);
}

/**
 * A folder name per cell: its axis values, which are plan names and so safe in a path, and its
 * scheduler with anything but [A-Za-z0-9.-] made "-" (option values are free text).
 */
export function logName(cell: CellKey): string {
  const scheduler = cell.scheduler === undefined ? [] : [cell.scheduler.replace(/[^A-Za-z0-9.-]+/g, "-")];
  const knobs = [...(cell.congestion === undefined ? [] : [`cc-${cell.congestion}`]), ...(cell.tailLossProbes === false ? ["tlp-off"] : [])];
  return [cell.site, cell.network, cell.protocol, cell.transport, cell.serverModel, cell.priority, ...scheduler, ...knobs, `run${cell.run}`].join("_");
}
