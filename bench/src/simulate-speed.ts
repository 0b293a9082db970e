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
  /**
   * The same, for the first simulation after each real replay: the replay's servers, browser and
   * link emulator have just run on the same cores, and their memory has taken the caches'.
   */
  afterReplayMs: number;
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
  afterReplayRatio: number;
}

/**
 * Simulations run after each real replay. A sweep runs simulations back to back, so all but the
 * first of a block are timed as it pays them; the first is timed apart, as it pays for the caches
 * the replay took (about 40% more on the median page, measured 2026-12-03).
 */
export const SIMULATIONS_PER_REPLAY = 5;

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
export function medianPage(graphs: string): string {
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
  const afterReplay: number[] = [];
  const loop: number[] = [];
  const setup: number[] = [];
  let first: number | undefined;
  let virtualMs = 0;
  for (let i = 0; i < loads; i++) {
    const common = { graphFile, configuration: configuration(protocol), timeoutMs: 120_000, serverOut: join(work, `servers-${i}`), resultFile: join(work, `run-${i}.json`) };
    let t = performance.now();
    const net = `bsim${process.pid % 10_000}`;
    try {
      const topology = await topologyUp(net, spec, i);
      const r = await runReplay({ ...common, seed: i, client: "emulated", topology });
      replayLoad.push(r.metrics.loadMs ?? NaN);
    } finally {
      await topologyDown(net);
    }
    replay.push(performance.now() - t);
    const block: number[] = [];
    for (let k = 0; k < SIMULATIONS_PER_REPLAY; k++) {
      t = performance.now();
      // The servers' logs go where a sweep's worker puts them (run-cell.ts).
      const s = await runSimulation({ ...common, seed: i * SIMULATIONS_PER_REPLAY + k, serverOut: workerLogs("bench"), network: specNetwork(spec) });
      block.push(performance.now() - t);
      virtualMs = s.simulation.virtualMs;
      if (first === undefined) first = block[0];
      else if (k === 0) afterReplay.push(block[0]!);
      else {
        simulate.push(block.at(-1)!);
        loop.push(s.simulation.wallMs - s.simulation.setupMs);
        setup.push(s.simulation.setupMs);
      }
    }
    log(`  load ${i + 1}/${loads}: replay ${replay.at(-1)!.toFixed(0)} ms; ${SIMULATIONS_PER_REPLAY} simulations after it, ${block.map((ms) => ms.toFixed(0)).join(", ")} ms`);
  }
  const [replayMs, simulateMs, simulateLoopMs] = [median(replay), median(simulate), median(loop)];
  // With one load, the only simulation after a replay is the process's first.
  const afterReplayMs = afterReplay.length > 0 ? median(afterReplay) : NaN;
  dropWorkerLogs("bench");
  return {
    protocol,
    site: graphFile,
    condition: spec.name,
    loads,
    replayMs,
    replayLoadMs: median(replayLoad),
    simulateMs,
    afterReplayMs,
    firstSimulateMs: first!,
    simulateSetupMs: median(setup),
    simulateLoopMs,
    virtualMs,
    ratio: simulateMs / replayMs,
    loopRatio: simulateLoopMs / replayMs,
    afterReplayRatio: afterReplayMs / replayMs,
  };
}
