import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { quantile } from "@pagepath/corpus";
import { runReplay, runSimulation, specNetwork, networkSpec, stopBatchSimulators, topologyDown, topologyUp, workerLogs, dropWorkerLogs } from "@pagepath/runner";
import { tempDir } from "@pagepath/temp-dirs";

const median = (xs: number[]) => quantile(xs, 0.5);

export interface SimulateBenchResult {
  /** "h3" (over QUIC: tquic) or "h2" (over TCP: smoltcp). */
  protocol: "h3" | "h2";
  /** The corpus page of median size among --graphs' realistic sites. */
  site: string;
  condition: string;
  loads: number;
  /** Wall time of one real-time replay (emulated browser): topology up, servers, the load, servers and topology down. */
  replayMs: number;
  /** Of which the page load itself. */
  replayLoadMs: number;
  /**
   * Wall time of one simulation as a sweep pays it: runSimulation from its call to the validated run
   * result, in the batch process it keeps (replay/runner/src/batch-simulator.ts), setup included.
   */
  simulateMs: number;
  /** The first simulation, which starts pagepath-sim and reads the page: what a lone `pagepath simulate` pays. */
  firstSimulateMs: number;
  /** Of which pagepath-sim's setup: reading the recording and the graph, the certificate, the endpoints. */
  simulateSetupMs: number;
  /** And the simulated load itself: the loop from the first request to the end of the run. */
  simulateLoopMs: number;
  virtualMs: number;
  /** simulateMs / replayMs: the floor is 1/200 = 0.005. */
  ratio: number;
  loopRatio: number;
}

const configuration = (protocol: "h3" | "h2"): Parameters<typeof runReplay>[0]["configuration"] => ({
  protocol,
  transport: protocol === "h3" ? "quic" : "tcp",
  serverModel: "out-of-order",
  priority: "none",
  chunkSizeBytes: 16_384,
  connectionsPerOrigin: 1,
  emulation: { preloader: true, cpuFactor: 1, waitFor: "load" },
});

/** The realistic corpus page whose graph file is of median size: a page neither small nor large. */
function medianPage(graphs: string): string {
  const files = readdirSync(graphs).filter((f) => f.startsWith("real-") && f.endsWith(".json"));
  if (files.length === 0) throw new Error(`${graphs}: no realistic corpus graphs (real-*.json); build them with pagepath corpus build --kind realistic`);
  const sized = files.map((f) => ({ f, size: statSync(join(graphs, f)).size })).sort((a, b) => a.size - b.size);
  return join(graphs, sized[Math.floor((sized.length - 1) / 2)]!.f);
}

/**
 * One real-time replay of the median corpus page (the emulated browser over `protocol`, its topology
 * brought up and down as `pagepath replay` does) against one simulation of it, alternating, N of
 * each, in the same run: wall time per load and the ratio.
 */
export async function benchSimulate(graphs: string, loads: number, protocol: "h3" | "h2", log: (l: string) => void): Promise<SimulateBenchResult> {
  const graphFile = medianPage(graphs);
  // The first simulation below starts its process and reads the page, as a lone pagepath simulate does.
  stopBatchSimulators();
  const spec = networkSpec("10mbit-40ms", { paths: 1, rateMbit: 10, rttMs: 40, loss: 0 });
  const work = tempDir("bench-simulate");
  const replay: number[] = [];
  const replayLoad: number[] = [];
  const simulate: number[] = [];
  const loop: number[] = [];
  const setup: number[] = [];
  let virtualMs = 0;
  for (let i = 0; i < loads; i++) {
    const common = { graphFile, configuration: configuration(protocol), seed: i, timeoutMs: 120_000, serverOut: join(work, `servers-${i}`), resultFile: join(work, `run-${i}.json`) };
    let t = performance.now();
    const net = `bsim${process.pid % 10_000}`;
    try {
      const topology = await topologyUp(net, spec, i);
      const r = await runReplay({ ...common, client: "emulated", topology });
      replayLoad.push(r.metrics.loadMs ?? NaN);
    } finally {
      await topologyDown(net);
    }
    replay.push(performance.now() - t);
    t = performance.now();
    // The servers' logs go where a sweep's worker puts them (run-cell.ts).
    const s = await runSimulation({ ...common, serverOut: workerLogs("bench"), network: specNetwork(spec) });
    simulate.push(performance.now() - t);
    loop.push(s.simulation.wallMs - s.simulation.setupMs);
    setup.push(s.simulation.setupMs);
    virtualMs = s.simulation.virtualMs;
    log(`  load ${i + 1}/${loads}: replay ${replay.at(-1)!.toFixed(0)} ms, simulation ${simulate.at(-1)!.toFixed(0)} ms (${s.simulation.setupMs.toFixed(0)} ms of it setup, ${(s.simulation.wallMs - s.simulation.setupMs).toFixed(0)} ms the simulator's loop)`);
  }
  const [replayMs, simulateMs, simulateLoopMs] = [median(replay), median(simulate), median(loop)];
  dropWorkerLogs("bench");
  return {
    protocol,
    site: graphFile,
    condition: spec.name,
    loads,
    replayMs,
    replayLoadMs: median(replayLoad),
    simulateMs,
    firstSimulateMs: simulate[0]!,
    simulateSetupMs: median(setup),
    simulateLoopMs,
    virtualMs,
    ratio: simulateMs / replayMs,
    loopRatio: simulateLoopMs / replayMs,
  };
}
