import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { quantile, writeSyntheticRecording } from "@pagepath/corpus";
import { NET_BINARY, REPLAY_SERVER, networkSpec, startReplayServer, topologyDown, topologyUp, type RunningReplayServer } from "@pagepath/runner";
import { tempDir } from "@pagepath/temp-dirs";

/**
 * Bulk throughput of one large response over two equal emulated paths with each multipath QUIC
 * scheduler on the replay server, as a ratio to tquic's own minrtt in the same run: the cost of
 * going through pagepath's scheduler hook (and of each scheduler's choices) where the network
 * leaves nothing to choose between the paths.
 */
const run = promisify(execFile);
const FETCH = join(process.cwd(), "replay", "target", "release", "pagepath-fetch");
const ORIGIN = "https://www.sched.test";
const HOST = "www.sched.test";
const TARGET = "/bulk.bin";
const TOPOLOGY = "bsched";
export const REFERENCE = "minrtt";
export const LINK = { paths: 2, rateMbit: 100, rttMs: 20, loss: 0 };
/**
 * Schedulers that choose only the path (the transport's own stream order fills the packet): the
 * issue holds these to under 5% below minrtt; the stream-aware ones are reported.
 */
export const PATH_ONLY = ["lowest-rtt", "round-robin", "redundant", "ecf", "blest"];
export const PATH_ONLY_FLOOR = 0.95;

export interface SchedulerThroughput {
  scheduler: string;
  family: "pagepath" | "tquic";
  kind: "reference" | "path-only" | "stream-aware";
  /** Medians over the loads. */
  mbps: number;
  ratio: number;
  /** Path-only schedulers against the 5% floor; null for the others. */
  meetsFloor: boolean | null;
  runsMbps: number[];
  /** Bytes the client received on each path, median over the loads. */
  clientBytesPerPath: number[];
}

export interface ThroughputResult {
  link: typeof LINK & { queuePackets: number };
  bytes: number;
  loads: number;
  rows: SchedulerThroughput[];
}

interface Listed {
  name: string;
  family: "pagepath" | "tquic";
}

/** The schedulers pagepath-server takes, by family: pagepath's registry and tquic's own. */
export async function listedSchedulers(): Promise<Listed[]> {
  const { stdout } = await run(REPLAY_SERVER, ["schedulers"]);
  return JSON.parse(stdout).schedulers.map((s: Listed) => ({ name: s.name, family: s.family }));
}

/** One GET of the bulk response over both paths; Mbit/s from the request to its last byte. */
async function fetchOnce(address: string, bytes: number): Promise<{ mbps: number; pathBytes: number[] }> {
  const [a, b] = [networkAddress(0), networkAddress(1)];
  const { stdout } = await run(NET_BINARY, ["exec", TOPOLOGY, "client", "--", FETCH, "--connect", `${address}:443`, "--host", HOST, "--local", a, "--local", b, "--multipath", "--timeout-s", "120", TARGET], { maxBuffer: 1 << 20 });
  const report = JSON.parse(stdout.trim().split("\n").at(-1)!);
  const r = report.responses[0];
  if (r.status !== 200 || r.bytes !== bytes) throw new Error(`pagepath-fetch got status ${r.status} and ${r.bytes} bytes of ${bytes}`);
  const pathBytes = [a, b].map((local) => report.paths.find((p: any) => p.local.startsWith(`${local}:`))?.bytesReceived ?? 0);
  return { mbps: (bytes * 8) / (r.endUs - r.startUs), pathBytes };
}

/** The topology's client address on `path` (docs/formats/topology.md). */
function networkAddress(path: number): string {
  return `10.10.${path}.2`;
}

export async function benchSchedulerThroughput(megabytes: number, loads: number, log: (line: string) => void): Promise<ThroughputResult> {
  const bytes = megabytes * 1_000_000;
  const listed = await listedSchedulers();
  const reference = listed.find((s) => s.name === REFERENCE);
  if (!reference) throw new Error(`pagepath-server schedulers does not list tquic's ${REFERENCE}`);
  const measured = [reference, ...listed.filter((s) => s.family === "pagepath")];
  const root = tempDir("bench-schedulers");
  // random, so that nothing on the way could make it smaller
  const recording = writeSyntheticRecording(join(root, "recording"), ORIGIN, [{ path: TARGET, mimeType: "application/octet-stream", bytes, body: randomBytes(bytes), delayMs: 0 }]);
  const spec = networkSpec("schedulers", LINK);
  await topologyUp(TOPOLOGY, spec, 1);
  const servers: RunningReplayServer[] = [];
  try {
    // one server per scheduler, all listening at once on addresses of their own, so that the
    // loads can take turns without a server start between them
    const addresses: string[] = [];
    for (const [i, s] of measured.entries()) {
      const address = `10.200.1.${i + 1}`;
      const out = join(root, `server-${s.name}`);
      servers.push(await startReplayServer([recording, "--out", out, "--protocol", "h3", "--transport", "mpquic", "--scheduler", s.name, "--no-qlog", "--delays", "zero", "--first-address", address], [NET_BINARY, "exec", TOPOLOGY, "server", "--"]));
      addresses.push(address);
    }
    const runs = measured.map(() => [] as Array<{ mbps: number; pathBytes: number[] }>);
    for (let load = 0; load < loads; load++) {
      // a different scheduler first in each round, so no one always follows the same one
      for (let k = 0; k < measured.length; k++) {
        const i = (k + load) % measured.length;
        const got = await fetchOnce(addresses[i]!, bytes);
        runs[i]!.push(got);
        log(`[${load + 1}/${loads}] ${measured[i]!.name.padEnd(16)} ${got.mbps.toFixed(1)} Mbit/s`);
      }
    }
    const median = (xs: number[]) => quantile(xs, 0.5);
    const referenceMbps = median(runs[0]!.map((r) => r.mbps));
    const rows = measured.map((s, i): SchedulerThroughput => {
      const mbps = median(runs[i]!.map((r) => r.mbps));
      const kind = i === 0 ? "reference" : PATH_ONLY.includes(s.name) ? "path-only" : "stream-aware";
      return {
        scheduler: s.name, family: s.family, kind, mbps, ratio: mbps / referenceMbps,
        meetsFloor: kind === "path-only" ? mbps / referenceMbps >= PATH_ONLY_FLOOR : null,
        runsMbps: runs[i]!.map((r) => r.mbps),
        clientBytesPerPath: [0, 1].map((p) => median(runs[i]!.map((r) => r.pathBytes[p]!))),
      };
    });
    return { link: { ...LINK, queuePackets: spec.queuePackets }, bytes, loads, rows };
  } finally {
    for (const s of servers) await s.stop();
    await topologyDown(TOPOLOGY);
  }
}
