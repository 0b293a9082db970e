import { spawn } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { transportRefusal, type NetworkConfig, type PathBytes, type RunConfiguration, type RunResult } from "@pagepath/results";
import { SIM_BINARY, requireBinary } from "./binaries.js";
import type { ClientReport } from "./client-report.js";
import { browserArgs } from "./emulated-client.js";
import { checkReplayInputs } from "./graph-check.js";
import { defaultScheduler } from "./multipath-scheduler.js";
import { relayedStderr } from "./relayed-stderr.js";
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
 * network's paths as the link emulator models them (pagepath-sim), as a validated run result of the
 * `simulated` client. Needs no root and no namespaces. Bad input throws before anything runs.
 */
export async function runSimulation(r: SimulationRun): Promise<RunResult & { simulation: SimulationReport["simulation"] }> {
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
  const report = await runSimulator(["--topology", topologyFile, "--seed", String(r.seed), ...serve, "--", ...browse]);
  const paths: PathBytes[] = report.simulation.paths.map((p) => ({ path: p.path, bytesUp: p.bytesUp, bytesDown: p.bytesDown }));
  const versions = { ...report.versions, simulator: `pagepath-sim ${report.simulation.version}` };
  const result = assembleRunResult({ ...r, client: "simulated", topology }, configuration, { ...report, versions }, paths, graph);
  return { ...result, simulation: report.simulation };
}

function runSimulator(args: string[]): Promise<SimulationReport> {
  const child = spawn(requireBinary(SIM_BINARY), args, { stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  let err = "";
  child.stdout.on("data", (d) => (out += d));
  child.stderr.on("data", (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.on("error", (e) => reject(new Error(`cannot run ${SIM_BINARY}: ${e.message}`)));
    child.on("close", (code) => {
      const line = out.trim().split("\n").at(-1) ?? "";
      if (line.startsWith("{")) return resolve(JSON.parse(line) as SimulationReport);
      reject(new Error(`pagepath-sim exited with ${code}: ${relayedStderr(err, "pagepath-sim") || "no report"}`));
    });
  });
}
