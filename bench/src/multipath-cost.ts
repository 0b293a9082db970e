import { randomBytes } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { quantile, writeSyntheticRecording } from "@pagepath/corpus";
import { NET_BINARY, networkUp, startReplayServer, topologyDown, type RunningReplayServer } from "@pagepath/runner";
import type { NetworkConfig } from "@pagepath/results";
import { tempDir } from "@pagepath/temp-dirs";
import { bulkFetch, type BulkLoad } from "./bulk-fetch.js";
import { machineTicks } from "./cpu-steal.js";

/**
 * The cost of multipath in the stack (seed 002 Ch. 5; issue 23, experiment 5): one bulk download
 * over HTTP/3 with tquic on 1, 2 and 3 paths that do not limit it (no rate limit, 1 ms RTT), as a
 * ratio to single-path QUIC in the same run, and where the CPU goes while it runs: the client
 * (its own count), the server and the link emulator (their /proc counts over the load) and the
 * whole machine. Seed 002 found multipath quiche 30% faster with 2 paths and 34% with 3, then one
 * core saturated.
 */
const ORIGIN = "https://www.mpcost.test";
const HOST = "www.mpcost.test";
const TOPOLOGY = "bmpcost";
const MAX_PATHS = 3;
const PATH = { upMbps: null, downMbps: null, rttMs: 1, loss: 0, queue: null };
/** Linux's USER_HZ: /proc's CPU times are in these ticks. */
const TICKS_PER_SECOND = 100;

export interface Configuration {
  label: string;
  transport: "quic" | "mpquic";
  paths: number;
}

/** Single-path QUIC (the reference), then multipath QUIC on 1, 2 and 3 paths. */
const CONFIGURATIONS: Configuration[] = [
  { label: "QUIC, 1 path", transport: "quic", paths: 1 },
  ...Array.from({ length: MAX_PATHS }, (_, i): Configuration => ({ label: `multipath QUIC, ${i + 1} path${i ? "s" : ""}`, transport: "mpquic", paths: i + 1 })),
];

/** CPU use while loads ran, in cores (CPU seconds per second of wall time), medians over the loads. */
export interface CpuShare {
  client: number;
  server: number;
  emulator: number;
  /** Every process of the machine; its cores are the most it can reach. */
  machine: number;
}

export interface MultipathCostRow extends Configuration {
  mbps: number | null;
  ratio: number | null;
  runsMbps: number[];
  /** Median bytes the client received over each path. */
  pathBytes: number[] | null;
  cpu: CpuShare | null;
  failed: string[];
}

export interface MultipathCostResult {
  bytes: number;
  loads: number;
  cores: number;
  path: typeof PATH;
  rows: MultipathCostRow[];
}

/** CPU ticks used so far by each process whose name is one of `names`, and by the whole machine. */
function cpuTicks(names: string[]): { byName: Map<string, number>; machine: number } {
  const byName = new Map(names.map((n) => [n, 0]));
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone since the listing
    }
    const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
    if (!byName.has(name)) continue;
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    byName.set(name, byName.get(name)! + Number(fields[11]) + Number(fields[12]));
  }
  const all = machineTicks();
  if (!all) throw new Error("/proc/stat: cannot read the machine's CPU time");
  // user, nice, system, irq, softirq, steal: busy; idle and iowait are not
  const machine = all[0]! + all[1]! + all[2]! + all[5]! + all[6]! + all[7]!;
  return { byName, machine };
}

// "pagepath-server" is 15 characters, the most a process name holds.
const SERVER = "pagepath-server";
const EMULATOR = "pagepath-net";

type Measured = Exclude<BulkLoad, { failed: string }> & { cpu: CpuShare };

async function measuredFetch(address: string, locals: string[], c: Configuration, bytes: number, cores: number): Promise<Measured | { failed: string }> {
  const before = cpuTicks([SERVER, EMULATOR]);
  const load = await bulkFetch({ topology: TOPOLOGY, address, host: HOST, locals: locals.slice(0, c.paths), multipath: c.transport === "mpquic", targets: ["/bulk.bin"], bytes });
  const after = cpuTicks([SERVER, EMULATOR]);
  if ("failed" in load) return load;
  const seconds = load.wallMs / 1000;
  const cores_ = (ticks: number) => ticks / TICKS_PER_SECOND / seconds;
  const used = (name: string) => cores_(after.byName.get(name)! - before.byName.get(name)!);
  return { ...load, cpu: { client: load.clientCpuUs / 1e6 / seconds, server: used(SERVER), emulator: used(EMULATOR), machine: Math.min(cores, cores_(after.machine - before.machine)) } };
}

export async function benchMultipathCost(megabytes: number, loads: number, cores: number, log: (line: string) => void): Promise<MultipathCostResult> {
  const bytes = megabytes * 1_000_000;
  const root = tempDir("bench-multipath-cost");
  const recording = writeSyntheticRecording(join(root, "recording"), ORIGIN, [{ path: "/bulk.bin", mimeType: "application/octet-stream", bytes, body: randomBytes(bytes), delayMs: 0 }]);
  const network: NetworkConfig = { name: "multipath-cost", paths: Array.from({ length: MAX_PATHS }, () => ({ ...PATH })) };
  const { clientAddresses } = await networkUp(TOPOLOGY, network, 1, process.cwd());
  const servers: RunningReplayServer[] = [];
  try {
    // One server per transport, both listening at once, so loads take turns without a restart.
    const addresses = new Map<string, string>();
    for (const [i, transport] of (["quic", "mpquic"] as const).entries()) {
      const address = `10.200.1.${i + 1}`;
      servers.push(await startReplayServer([recording, "--out", join(root, `server-${transport}`), "--protocol", "h3", "--transport", transport, ...(transport === "mpquic" ? ["--scheduler", "lowest-rtt"] : []), "--no-qlog", "--delays", "zero", "--first-address", address], [NET_BINARY, "exec", TOPOLOGY, "server", "--"]));
      addresses.set(transport, address);
    }
    const runs = CONFIGURATIONS.map(() => [] as (Measured | { failed: string })[]);
    for (let load = 0; load < loads; load++) {
      for (let k = 0; k < CONFIGURATIONS.length; k++) {
        // a different configuration first in each round, so none always follows the same one
        const i = (k + load) % CONFIGURATIONS.length;
        const c = CONFIGURATIONS[i]!;
        const got = await measuredFetch(addresses.get(c.transport)!, clientAddresses, c, bytes, cores);
        runs[i]!.push(got);
        log(`[${load + 1}/${loads}] ${c.label.padEnd(24)} ${"failed" in got ? `failed: ${got.failed}` : `${got.mbps.toFixed(0)} Mbit/s, cores: client ${got.cpu.client.toFixed(2)} server ${got.cpu.server.toFixed(2)} emulator ${got.cpu.emulator.toFixed(2)} machine ${got.cpu.machine.toFixed(2)}`}`);
      }
    }
    const median = (xs: number[]) => quantile(xs, 0.5);
    const done = runs.map((r) => r.filter((l): l is Measured => !("failed" in l)));
    const reference = done[0]!.length ? median(done[0]!.map((l) => l.mbps)) : null;
    const rows = CONFIGURATIONS.map((c, i): MultipathCostRow => {
      const d = done[i]!;
      const mbps = d.length ? median(d.map((l) => l.mbps)) : null;
      const cpu = (k: keyof CpuShare) => median(d.map((l) => l.cpu[k]));
      return {
        ...c, mbps, ratio: mbps !== null && reference !== null ? mbps / reference : null,
        runsMbps: d.map((l) => l.mbps),
        pathBytes: d.length ? Array.from({ length: c.paths }, (_, p) => median(d.map((l) => l.pathBytes[p]!))) : null,
        cpu: d.length ? { client: cpu("client"), server: cpu("server"), emulator: cpu("emulator"), machine: cpu("machine") } : null,
        failed: runs[i]!.flatMap((l) => ("failed" in l ? [l.failed] : [])),
      };
    });
    return { bytes, loads, cores, path: PATH, rows };
  } finally {
    for (const s of servers) await s.stop();
    await topologyDown(TOPOLOGY);
  }
}
