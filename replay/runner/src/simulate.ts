import { mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { FILES } from "@pagepath/profiler";
import { transportRefusal, type NetworkConfig, type PathBytes, type RunConfiguration, type RunResult } from "@pagepath/results";
import { simulateInBatch } from "./batch-simulator.js";
import { SIM_BINARY, requireBinary } from "./binaries.js";
import type { ClientReport } from "./client-report.js";
import { browserArgs } from "./emulated-client.js";
import { checkReplayInputs } from "./graph-check.js";
import { defaultScheduler } from "./multipath-scheduler.js";
import { assembleRunResult, type ReplayRun } from "./run-replay.js";
import { backupPeerArgs, serverArgs } from "./server-args.js";
import { topologyDocument, type Topology } from "./topology.js";
import { isCoupled, resolveTransportKnobs } from "./transport-knobs.js";

export interface SimulationRun extends Omit<ReplayRun, "client" | "topology" | "qlog"> {
  network: NetworkConfig;
}

/** What pagepath-sim adds to the browser's report (replay/sim/src/simulation.rs). */
export interface SimulationReport extends ClientReport {
  simulation: { paths: { path: number; bytesUp: number; bytesDown: number }[]; virtualMs: number; wallMs: number; setupMs: number; rounds: number; seed: number; version: string };
}

/**
 * `checkReplayInputs`, kept while neither the graph nor the archive changes: a sweep simulates the
 * same page hundreds of times, and reading and checking it costs as much as a tenth of a load.
 */
const checked = new Map<string, { stamps: string; inputs: ReturnType<typeof checkReplayInputs> }>();

function checkedInputs(graphFile: string, recording?: string): ReturnType<typeof checkReplayInputs> {
  const key = `${resolve(graphFile)}\0${recording ?? ""}`;
  const stamp = (file: string) => {
    const s = statSync(file, { throwIfNoEntry: false });
    return s ? `${s.mtimeMs}:${s.size}` : "none";
  };
  const stamps = (inputs: ReturnType<typeof checkReplayInputs>) => `${stamp(graphFile)} ${stamp(join(inputs.recording, FILES.archive))}`;
  const kept = checked.get(key);
  if (kept && kept.stamps === stamps(kept.inputs)) return kept.inputs;
  const inputs = checkReplayInputs(graphFile, recording);
  checked.set(key, { stamps: stamps(inputs), inputs });
  return inputs;
}

/** The servers' folder with nothing in it: removing and making the folder itself costs milliseconds. */
function emptyFolder(dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (const entry of readdirSync(dir)) rmSync(join(dir, entry), { recursive: true, force: true });
}

/** The client addresses of a topology of `paths` paths (pagepath-link's topology::client_addr). */
const clientAddresses = (paths: number) => Array.from({ length: paths }, (_, i) => `10.10.${i}.2`);

/**
 * pagepath-sim's arguments for a run, with what its run result is made of; the servers' folder
 * emptied and the topology written into it. Bad input throws.
 */
export function simulationCommand(r: SimulationRun): { args: string[]; configuration: RunConfiguration; topology: Topology; graph: ReturnType<typeof checkReplayInputs>["graph"]; recording: string } {
  const refusal = transportRefusal("simulated", r.configuration.transport);
  if (refusal) throw new Error(`the simulated client over ${r.configuration.transport}: ${refusal}`);
  const { graph, recording } = checkedInputs(r.graphFile, r.recording);
  const scheduler = r.configuration.scheduler === undefined ? defaultScheduler(r.configuration.transport) : r.configuration.scheduler;
  const knobs = resolveTransportKnobs(r.configuration.transport, r.configuration.congestion, r.configuration.tailLossProbes ?? undefined, "simulated");
  const configuration: RunConfiguration = { ...r.configuration, scheduler, ...knobs, network: r.network };
  // A coupled controller is the simulator's alone: the servers run Reno, the simulated MPTCP
  // couples its subflows' growth.
  const coupled = isCoupled("simulated", configuration.transport, configuration.congestion) ? configuration.congestion : undefined;
  const topology: Topology = { name: "simulated", clientAddresses: clientAddresses(r.network.paths.length), network: r.network };
  emptyFolder(r.serverOut);
  const topologyFile = join(r.serverOut, "topology.json");
  writeFileSync(topologyFile, JSON.stringify(topologyDocument(r.network, process.cwd())));
  const served = coupled ? { ...configuration, congestion: "reno" } : configuration;
  const serve = ["serve", recording, "--out", r.serverOut, "--first-address", "10.200.1.1", "--no-qlog", ...serverArgs(served, r.graphFile, r.seed), ...backupPeerArgs(configuration, topology.clientAddresses)];
  const browse = browserArgs({ graphFile: r.graphFile, originsFile: join(r.serverOut, "origins.json"), configuration, topology, timeoutMs: r.timeoutMs });
  const profile = configuration.tcpProfile === undefined ? [] : ["--tcp-profile", configuration.tcpProfile];
  const tick = configuration.clockTickUs === undefined ? [] : ["--clock-tick-us", String(configuration.clockTickUs)];
  const coupling = coupled ? ["--coupled", coupled] : [];
  // What a summary run leaves out the simulator need not write, nor this process parse.
  const summary = r.detail === "summary" ? ["--summary"] : [];
  return { args: ["--topology", topologyFile, "--seed", String(r.seed), ...profile, ...tick, ...mptcpSchedulerArgs(configuration), ...coupling, ...summary, ...serve, "--", ...browse], configuration, topology, graph, recording };
}

/** The simulator's MPTCP scheduler: the kernel's in a real replay, so the simulator's own option. */
function mptcpSchedulerArgs(c: RunConfiguration): string[] {
  if (c.transport !== "mptcp" || !c.scheduler) return [];
  const options = Object.entries(c.scheduler.options).flatMap(([k, v]) => ["--mptcp-scheduler-opt", `${k}=${v}`]);
  return ["--mptcp-scheduler", c.scheduler.name, ...options];
}

/**
 * One page load in virtual time: the emulated browser, the replay servers and tquic over the
 * network's paths as the link emulator models them (pagepath-sim): a validated run result of the
 * `simulated` client, and the simulator's own numbers beside it. Needs no root and no namespaces.
 * Bad input throws before anything runs.
 */
export async function runSimulation(r: SimulationRun): Promise<{ result: RunResult; simulation: SimulationReport["simulation"] }> {
  const { args, configuration, topology, graph, recording } = simulationCommand(r);
  // Virtual time ends the run at its timeout too; the guard only catches a hang of the simulator.
  const report = await simulateInBatch<SimulationReport>(requireBinary(SIM_BINARY), args, r.timeoutMs + 30_000);
  const paths: PathBytes[] = report.simulation.paths.map((p) => ({ path: p.path, bytesUp: p.bytesUp, bytesDown: p.bytesDown }));
  const versions = { ...report.versions, simulator: `pagepath-sim ${report.simulation.version}` };
  const result = assembleRunResult({ ...r, client: "simulated", topology }, configuration, { ...report, versions }, paths, graph, recording);
  return { result, simulation: report.simulation };
}

