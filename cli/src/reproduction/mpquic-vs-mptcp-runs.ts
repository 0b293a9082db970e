/**
 * Seed 003's large-file experiment (§5.2.3) as a plan: one 20 MB file (writeBulkTransferPage) over
 * every scenario's two networks, with HTTP/2 over TCP and MPTCP and HTTP/3 over QUIC and multipath
 * QUIC, and each run's completion time per scenario, initial path and stack.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { writeBulkTransferPage } from "@pagepath/corpus";
import { prepareExperiment, requireRoot } from "@pagepath/runner";
import { median, readExperiment, type ExperimentPlan, type RunResult, type Transport } from "@pagepath/results";
import { sweepPending } from "./run.js";
import { scenarioNetworks, type Scenario } from "./mpquic-vs-mptcp-scenarios.js";

export const MPQUIC_VS_MPTCP = "mpquic-vs-mptcp";
/** Seed 003 §5.2.3's file. */
export const FILE_BYTES = 20_000_000;
const ORIGIN = "https://www.bulk.test";
export const STACKS: Transport[] = ["tcp", "mptcp", "quic", "mpquic"];

export function mpquicVsMptcpPlan(all: Scenario[], graph: string, client: "emulated" | "simulated", runs: number): ExperimentPlan {
  return {
    schemaVersion: 1,
    kind: "pagepath-experiment-plan",
    name: MPQUIC_VS_MPTCP,
    description: "seed 003 §5.2.3: a 20 MB download over two paths drawn by WSP from Table 5.1, each path first in turn, over TCP, MPTCP, QUIC and multipath QUIC",
    client,
    baseSeed: 1,
    runs,
    sites: [{ name: "bulk-20MB", graph }],
    networks: all.flatMap(scenarioNetworks),
    protocols: ["h2", "h3"],
    transports: STACKS,
    serverModels: ["out-of-order"],
    priorities: ["none"],
    chunkSizeBytes: 16384,
    connectionsPerOrigin: { h2: 1, h3: 1 },
    metric: "load",
    // A lossy 1 Mbit/s path can take many minutes for 20 MB; the simulator pays per packet, not per second.
    timeoutMs: client === "simulated" ? 3_600_000 : 600_000,
    // The kernel's (or the simulator's model of it) default MPTCP scheduler, and lowest-RTT for
    // multipath QUIC: the seed's schedulers.
    scheduler: { mpquic: { name: "lowest-rtt" } },
  };
}

/** Runs what of the plan is not done yet (WORK/plans, WORK/results, the file in WORK/bulk-20MB); returns its runs. */
export async function runMpquicVsMptcp(all: Scenario[], o: { work: string; client: "emulated" | "simulated"; runs: number; workers: number }): Promise<RunResult[]> {
  if (o.client === "emulated") requireRoot();
  const work = resolve(o.work);
  const plansDir = join(work, "plans");
  mkdirSync(plansDir, { recursive: true });
  const graph = writeBulkTransferPage(join(work, "bulk-20MB"), ORIGIN, FILE_BYTES);
  const file = join(plansDir, `${MPQUIC_VS_MPTCP}.plan.json`);
  writeFileSync(file, JSON.stringify(mpquicVsMptcpPlan(all, relative(plansDir, graph), o.client, o.runs), null, 2) + "\n");
  const x = prepareExperiment(file, join(work, "results", MPQUIC_VS_MPTCP));
  await sweepPending(x, o.workers);
  return readExperiment(x.planFile, { light: true }).runs;
}

export interface CellResult {
  /** Median completion time over the ok runs, ms. */
  ms: number;
  /** Median share of the downloaded bytes that came over the network's first path; null where not measured. */
  firstPathShare: number | null;
}

/** Per network and transport (cellKey), over its ok runs; absent where none finished. */
export function cellResults(runs: RunResult[]): Map<string, CellResult> {
  const byCell = new Map<string, { ms: number[]; shares: number[] }>();
  for (const r of runs) {
    if (r.status !== "ok" || r.metrics.loadMs === null) continue;
    const key = cellKey(r.configuration.network.name, r.configuration.transport);
    const cell = byCell.get(key) ?? { ms: [], shares: [] };
    cell.ms.push(r.metrics.loadMs);
    const down = r.paths.map((p) => p.bytesDown);
    const total = down.reduce<number>((a, b) => a + (b ?? 0), 0);
    if (down.every((b) => b !== null) && total > 0) cell.shares.push(down[0]! / total);
    byCell.set(key, cell);
  }
  return new Map([...byCell].map(([k, c]) => [k, { ms: median(c.ms), firstPathShare: c.shares.length ? median(c.shares) : null }]));
}

export const cellKey = (network: string, transport: Transport) => `${network} ${transport}`;
