import { existsSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { corpusCatalogue } from "@pagepath/corpus";
import { readPlanFile, type NetworkConfig, type RunResult } from "@pagepath/results";
import { NET_BINARY, networkReconfigure, networkUp, pendingCells, prepareExperiment, runLocalSweep, serverArgs, startReplayServer, topologyDown, checkReplayInputs } from "@pagepath/runner";
import { tempDir } from "@pagepath/temp-dirs";

export interface SweepThroughput {
  workers: number;
  /** Whether each run had a topology of its own (the reference) or its worker's kept one. */
  freshTopologies: boolean;
  runs: number;
  failed: number;
  seconds: number;
  loadsPerMinute: number;
  /**
   * Mean wall time of one run, and of the page's own time inside it (pageMs).
   */
  meanRunMs: number;
  meanLoadMs: number;
}

export interface ExperimentBenchResult {
  sites: string[];
  networks: string[];
  sweeps: SweepThroughput[];
  /** 1-worker throughput with kept topologies / with a topology per run, measured in this run. */
  keptSpeedup: number;
  /** 2-worker throughput / 1-worker throughput, kept topologies. */
  speedup: number;
  /** Mean ms of a topology brought up and taken down, of one reconfigured, and of the replay servers started and stopped. */
  topologyMs: number;
  reconfigureMs: number;
  serverMs: number;
  /** (reconfiguration + servers) / mean run wall time with one worker and kept topologies. */
  overheadShare: number;
  /** (run wall time − page time) / run wall time with one worker and kept topologies: everything but the page. */
  nonLoadShare: number;
  /** The same with a topology per run. */
  freshNonLoadShare: number;
}

const NETWORK: NetworkConfig = { name: "bench", paths: [{ upMbps: 20, downMbps: 20, rttMs: 40, loss: 0, queue: { discipline: "droptail", packets: 100 } }] };

/**
 * Sweep throughput: the same small plan (the `sites` smallest corpus pages x 2 rates x 2 RTTs x
 * HTTP/1.1 and HTTP/2, emulated client) run with 1 worker and then 2, and what a run costs besides
 * its page load, from topology and server setups timed alone.
 */
export async function benchExperiment(dataDir: string, siteCount: number, log: (line: string) => void): Promise<ExperimentBenchResult> {
  const graphs = join(dataDir, "graphs");
  if (!existsSync(graphs)) throw new Error(`--data ${dataDir}: no graphs/ folder; build the corpus first (pagepath corpus build --data ${dataDir})`);
  const sites = benchSites(graphs, siteCount);
  if (sites.length === 0) throw new Error(`--data ${dataDir}: no graph of a realistic corpus site in graphs/; build the corpus first (pagepath corpus build --data ${dataDir})`);
  const dir = tempDir("bench-experiment");
  try {
    const planFile = join(dir, "bench.plan.json");
    const plan = {
      schemaVersion: 1,
      kind: "pagepath-experiment-plan",
      name: "bench",
      description: "sweep throughput benchmark",
      client: "emulated",
      baseSeed: 1,
      runs: 1,
      sites: sites.map((name) => ({ name, graph: relative(dir, join(graphs, `${name}.json`)) })),
      grid: { rateMbit: [10, 50], rttMs: [20, 80] },
      protocols: ["h1", "h2"],
      transports: ["tcp"],
      serverModels: ["out-of-order"],
      priorities: ["none"],
      chunkSizeBytes: 16384,
      connectionsPerOrigin: { h1: 6, h2: 1 },
    };
    writeFileSync(planFile, JSON.stringify(plan));
    const networks = readPlanFile(planFile).networks.map((n) => n.name);
    const sweeps: SweepThroughput[] = [];
    for (const [workers, fresh] of [[1, true], [1, false], [2, false]] as const) sweeps.push(await sweep(planFile, join(dir, `workers-${workers}-${fresh ? "fresh" : "kept"}`), workers, fresh, log));
    const topologyMs = await meanOf(5, async () => {
      await networkUp("xbench", NETWORK, 1, dir);
      await topologyDown("xbench");
    });
    await networkUp("xbench", NETWORK, 1, dir);
    let reconfigureMs: number;
    try {
      let seed = 1;
      reconfigureMs = await meanOf(5, () => networkReconfigure("xbench", NETWORK, seed++, dir));
    } finally {
      await topologyDown("xbench");
    }
    const { recording } = checkReplayInputs(join(graphs, `${sites[0]}.json`));
    await networkUp("xbench", NETWORK, 1, dir);
    let serverMs: number;
    try {
      const configuration = { protocol: "h2" as const, transport: "tcp" as const, network: NETWORK, serverModel: "out-of-order" as const, priority: "none" as const, chunkSizeBytes: 16384, connectionsPerOrigin: 1 };
      const args = [recording, "--out", join(dir, "server"), "--first-address", "10.200.1.1", "--no-qlog", ...serverArgs(configuration, join(graphs, `${sites[0]}.json`), 1)];
      serverMs = await meanOf(5, async () => (await startReplayServer(args, [NET_BINARY, "exec", "xbench", "server", "--"])).stop());
    } finally {
      await topologyDown("xbench");
    }
    const [fresh, one, two] = sweeps as [SweepThroughput, SweepThroughput, SweepThroughput];
    log(`topology up and down ${topologyMs.toFixed(0)} ms, reconfigured ${reconfigureMs.toFixed(0)} ms, servers started and stopped ${serverMs.toFixed(0)} ms`);
    const nonLoad = (s: SweepThroughput) => (s.meanRunMs - s.meanLoadMs) / s.meanRunMs;
    return {
      sites,
      networks,
      sweeps,
      keptSpeedup: one.loadsPerMinute / fresh.loadsPerMinute,
      speedup: two.loadsPerMinute / one.loadsPerMinute,
      topologyMs,
      reconfigureMs,
      serverMs,
      overheadShare: (reconfigureMs + serverMs) / one.meanRunMs,
      nonLoadShare: nonLoad(one),
      freshNonLoadShare: nonLoad(fresh),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * The `count` smallest graphs of the realistic corpus (the bundled recipes), so that the plan stays
 * the same whatever generated sites the corpus also holds: with 300 of them, two of the four
 * smallest graphs overall were generated pages, and the plan changed with the corpus.
 */
function benchSites(graphs: string, count: number): string[] {
  const realistic = new Set(corpusCatalogue("", 0).filter((s) => s.kind === "realistic").map((s) => s.name));
  return readdirSync(graphs)
    .filter((f) => f.endsWith(".json") && realistic.has(f.slice(0, -5)))
    .map((f) => ({ name: f.slice(0, -5), size: statSync(join(graphs, f)).size }))
    .sort((a, b) => a.size - b.size)
    .slice(0, count)
    .map((s) => s.name);
}

/**
 * The page's own time in a run: until the last of what the client waited for. That is the load
 * event and the paints, and also what the page did after its load event until the network was
 * quiet (its late scripts and requests, which a recording in Chromium keeps too): the emulated
 * client ends its run there, not at the load event.
 */
function pageMs(r: RunResult): number {
  const m = r.metrics;
  const ends = [m.loadMs!, m.firstContentfulPaintMs ?? 0, m.largestContentfulPaintMs ?? 0, m.graphCompleteMs ?? 0];
  for (const t of r.nodeTimings ?? []) ends.push(t.end);
  for (const q of r.requests ?? []) ends.push(q.endMs ?? 0);
  return Math.max(...ends);
}

async function sweep(sourcePlan: string, out: string, workers: number, freshTopologies: boolean, log: (line: string) => void): Promise<SweepThroughput> {
  const x = prepareExperiment(sourcePlan, out);
  const cells = pendingCells(x.plan, x.runsFile, false);
  const started = new Map<string, number>();
  const runMs: number[] = [];
  const loadMs: number[] = [];
  let failed = 0;
  const t0 = performance.now();
  await runLocalSweep(
    { plan: x.plan, planFile: x.planFile, runsFile: x.runsFile, cells, workers, freshTopologies },
    {
      started: (cell) => started.set(JSON.stringify(cell), performance.now()),
      finished: (cell, r) => {
        runMs.push(performance.now() - started.get(JSON.stringify(cell))!);
        if (r.status === "ok" && r.metrics.loadMs !== null) loadMs.push(pageMs(r));
        else failed++;
      },
    },
  );
  const seconds = (performance.now() - t0) / 1000;
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
  const result = { workers, freshTopologies, runs: cells.length, failed, seconds, loadsPerMinute: (cells.length / seconds) * 60, meanRunMs: mean(runMs), meanLoadMs: mean(loadMs) };
  log(`${workers} worker${workers === 1 ? "" : "s"}, ${freshTopologies ? "a topology per run" : "kept topologies"}: ${cells.length} runs in ${seconds.toFixed(1)} s, ${result.loadsPerMinute.toFixed(1)} loads/min, a run ${result.meanRunMs.toFixed(0)} ms of which the page ${result.meanLoadMs.toFixed(0)} ms`);
  return result;
}

async function meanOf(times: number, f: () => Promise<unknown>): Promise<number> {
  let total = 0;
  for (let i = 0; i < times; i++) {
    const t = performance.now();
    await f();
    total += performance.now() - t;
  }
  return total / times;
}
