import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { promisify } from "node:util";
import { quantile, writeSyntheticRecording } from "@pagepath/corpus";
import { bulkFetch, type BulkLoad } from "./bulk-fetch.js";
import { NET_BINARY, REPLAY_SERVER, networkSpec, startReplayServer, topologyDown, topologyUp, type RunningReplayServer } from "@pagepath/runner";
import { tempDir } from "@pagepath/temp-dirs";

/**
 * Bulk throughput over two equal emulated paths with each multipath QUIC scheduler on the replay
 * server, as a ratio to tquic's own minrtt in the same run: the cost of going through pagepath's
 * scheduler hook (and of each scheduler's choices) where the network leaves nothing to choose
 * between the paths. The bytes go as one response, and as twenty at once, where a stream-aware
 * scheduler's per-stream work is paid on every packet.
 */
const run = promisify(execFile);
const ORIGIN = "https://www.sched.test";
const HOST = "www.sched.test";
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
  /** Responses fetched at once, the bytes split evenly among them. */
  streams: number;
  /** Medians over the loads that finished; null if none did. */
  mbps: number | null;
  ratio: number | null;
  /** Path-only schedulers against the 5% floor; null for the others. */
  meetsFloor: boolean | null;
  runsMbps: number[];
  /** Bytes the client received on each path, median over the loads that finished. */
  clientBytesPerPath: number[] | null;
  /** Loads that did not finish, with pagepath-fetch's reason. */
  failed: string[];
  /** Loads not run after a failure: each would cost the whole timeout again. */
  skipped: number;
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

/** The same bytes as one response, and as twenty fetched at once so that stream choice has work to do. */
const WORKLOADS = [1, 20];

const target = (streams: number, i: number) => (streams === 1 ? "/bulk.bin" : `/part-${i}-of-${streams}.bin`);

/** The schedulers pagepath-server takes, by family: pagepath's registry and tquic's own. */
export async function listedSchedulers(): Promise<Listed[]> {
  const { stdout } = await run(REPLAY_SERVER, ["schedulers"]);
  return JSON.parse(stdout).schedulers.map((s: Listed) => ({ name: s.name, family: s.family }));
}

/** One fetch of `streams` responses over both paths, from the client's addresses on them. */
function fetchOnce(address: string, locals: string[], bytes: number, streams: number): Promise<BulkLoad> {
  const targets = Array.from({ length: streams }, (_, i) => target(streams, i));
  return bulkFetch({ topology: TOPOLOGY, address, host: HOST, locals, multipath: true, targets, bytes });
}

export async function benchSchedulerThroughput(megabytes: number, loads: number, log: (line: string) => void): Promise<ThroughputResult> {
  const bytes = megabytes * 1_000_000;
  const listed = await listedSchedulers();
  const reference = listed.find((s) => s.name === REFERENCE);
  if (!reference) throw new Error(`pagepath-server schedulers does not list tquic's ${REFERENCE}`);
  const measured = [reference, ...listed.filter((s) => s.family === "pagepath")];
  const root = tempDir("bench-schedulers");
  // random, so that nothing on the way could make it smaller
  const resources = WORKLOADS.flatMap((streams) =>
    Array.from({ length: streams }, (_, i) => {
      const size = Math.floor(bytes / streams) + (i === 0 ? bytes % streams : 0);
      return { path: target(streams, i), mimeType: "application/octet-stream", bytes: size, body: randomBytes(size), delayMs: 0 };
    }),
  );
  const recording = writeSyntheticRecording(join(root, "recording"), ORIGIN, resources);
  const spec = networkSpec("schedulers", LINK);
  const { clientAddresses } = await topologyUp(TOPOLOGY, spec, 1);
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
    const runs = WORKLOADS.map(() => measured.map(() => [] as BulkLoad[]));
    for (let load = 0; load < loads; load++) {
      for (const [w, streams] of WORKLOADS.entries()) {
        // a different scheduler first in each round, so no one always follows the same one
        for (let k = 0; k < measured.length; k++) {
          const i = (k + load) % measured.length;
          if (runs[w]![i]!.some((l) => "failed" in l)) continue;
          const got = await fetchOnce(addresses[i]!, clientAddresses, bytes, streams);
          runs[w]![i]!.push(got);
          log(`[${load + 1}/${loads}] ${String(streams).padStart(2)} stream${streams === 1 ? " " : "s"} ${measured[i]!.name.padEnd(16)} ${"failed" in got ? `failed: ${got.failed}` : `${got.mbps.toFixed(1)} Mbit/s`}`);
        }
      }
    }
    const median = (xs: number[]) => (xs.length ? quantile(xs, 0.5) : null);
    const finished = (loads: BulkLoad[]) => loads.filter((l): l is Exclude<BulkLoad, { failed: string }> => !("failed" in l));
    const rows = WORKLOADS.flatMap((streams, w) => {
      const referenceMbps = median(finished(runs[w]![0]!).map((r) => r.mbps));
      return measured.map((s, i): SchedulerThroughput => {
        const done = finished(runs[w]![i]!);
        const mbps = median(done.map((r) => r.mbps));
        const ratio = mbps !== null && referenceMbps !== null ? mbps / referenceMbps : null;
        const kind = i === 0 ? "reference" : PATH_ONLY.includes(s.name) ? "path-only" : "stream-aware";
        return {
          scheduler: s.name, family: s.family, kind, streams, mbps, ratio,
          meetsFloor: kind === "path-only" && ratio !== null ? ratio >= PATH_ONLY_FLOOR : null,
          runsMbps: done.map((r) => r.mbps),
          clientBytesPerPath: done.length ? [0, 1].map((p) => median(done.map((r) => r.pathBytes[p]!))!) : null,
          failed: runs[w]![i]!.flatMap((l) => ("failed" in l ? [l.failed] : [])),
          skipped: loads - runs[w]![i]!.length,
        };
      });
    });
    return { link: { ...LINK, queuePackets: spec.queuePackets }, bytes, loads, rows };
  } finally {
    for (const s of servers) await s.stop();
    await topologyDown(TOPOLOGY);
  }
}
