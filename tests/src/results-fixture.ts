/**
 * TEST INPUTS, not measurements: experiment plans and run results whose load times come from a
 * formula, so that tests can compute what the validators and the viewer must make of them.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cellSeed, plannedScheduler, PLAN_SUFFIX, RUNS_SUFFIX, type CellKey, type ExperimentPlan, type NetworkConfig, type RunResult } from "@pagepath/results";

const SHA = "0".repeat(64);

export function network(downMbps: number, rttMs: number): NetworkConfig {
  return { name: `${downMbps}M-${rttMs}ms`, paths: [{ upMbps: downMbps / 2, downMbps, rttMs, loss: 0, queue: { discipline: "droptail", packets: 64 } }] };
}

export function samplePlan(name: string, change: Partial<ExperimentPlan> = {}): ExperimentPlan {
  return {
    schemaVersion: 1,
    kind: "pagepath-experiment-plan",
    name,
    description: "TEST INPUT: synthetic load times from a formula, not measurements",
    client: "emulated",
    baseSeed: 1000,
    runs: 3,
    sites: ["alpha", "beta", "gamma"].map((s) => ({ name: s, graph: `graphs/${s}.json` })),
    networks: [network(1, 20), network(1, 100), network(10, 20), network(10, 100)],
    protocols: ["h1", "h2"],
    transports: ["tcp"],
    serverModels: ["out-of-order"],
    priorities: ["none"],
    chunkSizeBytes: 16384,
    connectionsPerOrigin: { h1: 6, h2: 1 },
    ...change,
  };
}

/** A run of `cell` that is valid and fits `plan`; `loadMs` null makes a failed run. */
export function sampleRun(plan: ExperimentPlan, cell: CellKey, loadMs: number | null): RunResult {
  const net = plan.networks.find((n) => n.name === cell.network)!;
  const site = plan.sites.find((s) => s.name === cell.site)!;
  const ok = loadMs !== null;
  return {
    schemaVersion: 1,
    kind: "pagepath-run",
    experiment: plan.name,
    site: { name: site.name, graph: site.graph, graphSha256: SHA },
    client: plan.client,
    configuration: {
      protocol: cell.protocol,
      transport: cell.transport,
      network: net,
      serverModel: cell.serverModel,
      priority: cell.priority,
      chunkSizeBytes: plan.chunkSizeBytes,
      connectionsPerOrigin: plan.connectionsPerOrigin[cell.protocol] ?? null,
      ...(cell.scheduler === undefined ? {} : { scheduler: plannedScheduler(plan, cell.transport, cell.scheduler) }),
      ...(cell.congestion === undefined ? {} : { congestion: cell.congestion }),
      ...(cell.tailLossProbes === undefined ? {} : { tailLossProbes: cell.tailLossProbes }),
    },
    run: cell.run,
    seed: cellSeed(plan, cell.run),
    versions: { pagepath: "test-fixture" },
    startedAt: "2025-01-01T00:00:00.000Z",
    status: ok ? "ok" : "failed",
    error: ok ? null : "TEST INPUT: a failed run",
    metrics: { domContentLoadedMs: ok ? loadMs / 2 : null, loadMs, graphCompleteMs: ok ? loadMs + 1 : null },
    nodeTimings: ok ? [{ nodeId: "n0", start: 0, end: loadMs }] : null,
    connections: [{ id: "c0", origin: "https://alpha.test:443", protocol: cell.protocol, transport: cell.transport, openedMs: 0, closedMs: null, paths: [{ path: 0, bytesUp: 100, bytesDown: 5000 }] }],
    paths: net.paths.map((_, path) => ({ path, bytesUp: 100, bytesDown: 5000 })),
    warnings: [],
  };
}

export function writeExperiment(dir: string, plan: ExperimentPlan, runs: RunResult[], tail = ""): { plan: string; runs: string } {
  const files = { plan: join(dir, plan.name + PLAN_SUFFIX), runs: join(dir, plan.name + RUNS_SUFFIX) };
  writeFileSync(files.plan, JSON.stringify(plan, null, 2));
  writeFileSync(files.runs, runs.map((r) => JSON.stringify(r) + "\n").join("") + tail);
  return files;
}
