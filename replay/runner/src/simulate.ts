import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { transportRefusal, type NetworkConfig, type PathBytes, type RunConfiguration, type RunResult } from "@pagepath/results";
import { SIM_BINARY, requireBinary } from "./binaries.js";
import type { ClientReport } from "./client-report.js";
import { browserArgs } from "./emulated-client.js";
import { checkReplayInputs } from "./graph-check.js";
import { defaultScheduler } from "./multipath-scheduler.js";
import { reportLine } from "./report-line.js";
import { assembleRunResult, type ReplayRun } from "./run-replay.js";
import { backupPeerArgs, serverArgs } from "./server-args.js";
import { topologyDocument, type Topology } from "./topology.js";
import { resolveTransportKnobs } from "./transport-knobs.js";

export interface SimulationRun extends Omit<ReplayRun, "client" | "topology" | "qlog"> {
  network: NetworkConfig;
}

/** What pagepath-sim adds to the browser's report (replay/sim/src/simulation.rs). */
export interface SimulationReport extends ClientReport {
  simulation: { paths: { path: number; bytesUp: number; bytesDown: number }[]; virtualMs: number; wallMs: number; setupMs: number; rounds: number; seed: number; version: string };
}

/** The client addresses of a topology of `paths` paths (pagepath-link's topology::client_addr). */
const clientAddresses = (paths: number) => Array.from({ length: paths }, (_, i) => `10.10.${i}.2`);

/**
 * One page load in virtual time: the emulated browser, the replay servers and tquic over the
 * network's paths as the link emulator models them (pagepath-sim): a validated run result of the
 * `simulated` client, and the simulator's own numbers beside it. Needs no root and no namespaces.
 * Bad input throws before anything runs.
 */
export async function runSimulation(r: SimulationRun): Promise<{ result: RunResult; simulation: SimulationReport["simulation"] }> {
  const refusal = transportRefusal("simulated", r.configuration.transport);
  if (refusal) throw new Error(`the simulated client over ${r.configuration.transport}: ${refusal}`);
  const { graph, recording } = checkReplayInputs(r.graphFile, r.recording);
  const scheduler = r.configuration.scheduler === undefined ? defaultScheduler(r.configuration.transport) : r.configuration.scheduler;
  const knobs = resolveTransportKnobs(r.configuration.transport, r.configuration.congestion, r.configuration.tailLossProbes ?? undefined);
  const configuration: RunConfiguration = { ...r.configuration, scheduler, ...knobs, network: r.network };
  const topology: Topology = { name: "simulated", clientAddresses: clientAddresses(r.network.paths.length), network: r.network };
  rmSync(r.serverOut, { recursive: true, force: true });
  mkdirSync(r.serverOut, { recursive: true });
  const topologyFile = join(r.serverOut, "topology.json");
  writeFileSync(topologyFile, JSON.stringify(topologyDocument(r.network, process.cwd())));
  const serve = ["serve", recording, "--out", r.serverOut, "--first-address", "10.200.1.1", "--no-qlog", ...serverArgs(configuration, r.graphFile, r.seed), ...backupPeerArgs(configuration, topology.clientAddresses)];
  const browse = browserArgs({ graphFile: r.graphFile, originsFile: join(r.serverOut, "origins.json"), configuration, topology, timeoutMs: r.timeoutMs });
  const args = ["--topology", topologyFile, "--seed", String(r.seed), ...serve, "--", ...browse];
  // Virtual time ends the run at its timeout too; the guard only catches a hang of the simulator.
  const report = await reportLine<SimulationReport>(requireBinary(SIM_BINARY), args, "pagepath-sim", r.timeoutMs + 30_000);
  const paths: PathBytes[] = report.simulation.paths.map((p) => ({ path: p.path, bytesUp: p.bytesUp, bytesDown: p.bytesDown }));
  const versions = { ...report.versions, simulator: `pagepath-sim ${report.simulation.version}` };
  const result = assembleRunResult({ ...r, client: "simulated", topology }, configuration, { ...report, versions }, paths, graph);
  return { result, simulation: report.simulation };
}

