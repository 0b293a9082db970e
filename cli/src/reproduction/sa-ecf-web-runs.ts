/**
 * Seed 004 §6.2.2's web-traffic experiment (Table 6.8, Fig 6.11): five files of a web page's
 * kinds, 5 MB in all, fetched at once over five HTTP/3 streams of one multipath QUIC connection,
 * each class weighted as Table 6.8 assigns it, over a fast and a slow path, with the fair stream
 * scheduler's lowest-RTT paths, SA-ECF and the adapted SA-ECF on the server, runs in turns. Per
 * run and stream: the completion time the client saw, and the bytes and sending time per path the
 * server logged.
 */
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { writeSyntheticRecording } from "@pagepath/corpus";
import { NET_BINARY, networkSpec, networkUp, requireRoot, startReplayServer, topologyDown, type RunningReplayServer } from "@pagepath/runner";
import type { NetworkConfig } from "@pagepath/results";
import { bulkFetch } from "@pagepath/bench";
import { Progress } from "../progress.js";

export const SA_ECF_WEB = "sa-ecf-web";

export interface WebClass {
  name: string;
  file: string;
  bytes: number;
  weight: number;
  /** The RFC 9218 urgency the client sends, one per class: how the schedulers tell the classes apart. */
  urgency: number;
}

/** Table 6.8, most urgent first. */
export const TABLE_6_8: WebClass[] = [
  { name: "C", file: "index.html", bytes: 60_000, weight: 4000, urgency: 0 },
  { name: "A1", file: "style.css", bytes: 40_000, weight: 600, urgency: 1 },
  { name: "A2", file: "script.js", bytes: 100_000, weight: 2400, urgency: 2 },
  { name: "B1", file: "image.png", bytes: 1_000_000, weight: 1000, urgency: 3 },
  { name: "B2", file: "video.mp4", bytes: 3_800_000, weight: 2000, urgency: 4 },
];

const WEIGHTS = TABLE_6_8.map((c) => `${c.urgency}:${c.weight}`).join("/");

/** The three schedulers of Fig 6.11, each weighting the classes as Table 6.8 does. */
export const WEB_SCHEDULERS = [
  { label: "LowRTT", name: "fair", options: [`weights=${WEIGHTS}`, "paths=lowest-rtt"] },
  { label: "SA-ECF", name: "sa-ecf-ported", options: [`weights=${WEIGHTS}`] },
  { label: "adapted SA-ECF", name: "sa-ecf-adapted", options: [`weights=${WEIGHTS}`] },
];

/** The heterogeneous pair (seed 004 §6.2): a fast, short path first, where the connection opens. */
export const WEB_PATHS = [
  { rateMbit: 50, rttMs: 10 },
  { rateMbit: 10, rttMs: 50 },
];

const ORIGIN = "https://www.web.test";
export const WEB_HOST = "www.web.test";
const TOPOLOGY = "rsaecf";

export interface StreamResult {
  className: string;
  /** From the request to the last byte, at the client. */
  completionMs: number;
  /** Bytes the server sent on each path (STREAM frame payload, retransmissions included). */
  pathBytes: number[];
  /** The server's sending rate while the stream was active, Mbit/s. */
  rateMbps: number | null;
}

export interface WebRun {
  scheduler: string;
  run: number;
  /** null when the fetch failed. */
  streams: StreamResult[] | null;
  error: string | null;
}

/** The five files, served from one origin without delays: their recording in `work`. */
export function webRecording(work: string): string {
  return writeSyntheticRecording(join(work, "recording"), ORIGIN, TABLE_6_8.map((c) => ({ path: `/${c.file}`, mimeType: "application/octet-stream", bytes: c.bytes, body: randomBytes(c.bytes), delayMs: 0 })));
}

export const WEB_NETWORK: NetworkConfig = {
  name: "seed004-6.2",
  // each path's buffer as pagepath replay sizes it: one bandwidth-delay product, at least 16 packets
  paths: WEB_PATHS.map((p) => ({ upMbps: p.rateMbit, downMbps: p.rateMbit, rttMs: p.rttMs, loss: 0, queue: { discipline: "droptail", packets: networkSpec(SA_ECF_WEB, { paths: 1, ...p, loss: 0 }).queuePackets } })),
};

/** The replay server's arguments for scheduler `s` at `address`, its logs in `out`. */
export const webServerArgs = (recording: string, out: string, s: (typeof WEB_SCHEDULERS)[number], address: string) =>
  [recording, "--out", out, "--protocol", "h3", "--transport", "mpquic", "--scheduler", s.name, ...s.options.flatMap((o) => ["--scheduler-opt", o]), "--no-qlog", "--delays", "zero", "--first-address", address];

/** pagepath-fetch's targets: every file at once, each with its class's urgency. */
export const WEB_TARGETS = TABLE_6_8.map((c) => `/${c.file}@u=${c.urgency}`);
export const WEB_BYTES = TABLE_6_8.reduce((a, c) => a + c.bytes, 0);

/** Runs `runs` rounds of the three schedulers in turns; needs root. */
export async function runSaEcfWeb(work: string, runs: number): Promise<WebRun[]> {
  requireRoot();
  const recording = webRecording(work);
  const { clientAddresses } = await networkUp(TOPOLOGY, WEB_NETWORK, 1, process.cwd());
  const servers: RunningReplayServer[] = [];
  const logs: string[] = [];
  const results: WebRun[] = [];
  try {
    for (const [i, s] of WEB_SCHEDULERS.entries()) {
      const out = join(work, `server-${s.name}`);
      logs.push(out);
      servers.push(await startReplayServer(webServerArgs(recording, out, s, `10.200.1.${i + 1}`), [NET_BINARY, "exec", TOPOLOGY, "server", "--"]));
    }
    const progress = new Progress(runs * WEB_SCHEDULERS.length, SA_ECF_WEB);
    for (let run = 0; run < runs; run++) {
      for (let k = 0; k < WEB_SCHEDULERS.length; k++) {
        const i = (k + run) % WEB_SCHEDULERS.length;
        const load = await bulkFetch({
          topology: TOPOLOGY, address: `10.200.1.${i + 1}`, host: WEB_HOST, locals: clientAddresses, multipath: true,
          targets: WEB_TARGETS, bytes: WEB_BYTES,
        });
        const streams = "failed" in load ? null : load.responses.map((r) => ({ className: classOf(r.target).name, completionMs: (r.endUs - r.startUs) / 1000, pathBytes: [], rateMbps: null }));
        const error = "failed" in load ? load.failed : null;
        results.push({ scheduler: WEB_SCHEDULERS[i]!.name, run, streams, error });
        progress.finished(`${WEB_SCHEDULERS[i]!.label} run ${run + 1}`, error === null, error ?? "");
      }
    }
    progress.end();
  } finally {
    for (const s of servers) await s.stop();
    await topologyDown(TOPOLOGY);
  }
  WEB_SCHEDULERS.forEach((s, i) => addServerSide(results.filter((r) => r.scheduler === s.name), join(logs[i]!, "streams.jsonl"), clientAddresses));
  return results;
}

export const classOf = (target: string) => TABLE_6_8.find((c) => target === `/${c.file}`)!;

/**
 * Each stream's bytes per path (by the client address at the path's far end) and sending rate,
 * from the server's streams.jsonl: one connection per fetch, numbered in the order the fetches
 * came, so the scheduler's runs take its connections in turn; where the counts differ (a failed
 * fetch opened none) the log is not matched.
 */
export function addServerSide(runs: WebRun[], file: string, clientAddresses: string[]): void {
  const lines = readFileSync(file, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l));
  const connections = [...new Set(lines.map((l) => l.connection as number))].sort((a, b) => a - b);
  if (connections.length !== runs.length) return;
  runs.forEach((run, i) => {
    for (const stream of run.streams ?? []) {
      const line = lines.find((l) => l.connection === connections[i] && new URL(l.url).pathname === `/${TABLE_6_8.find((c) => c.name === stream.className)!.file}`);
      const paths: any[] = line?.paths ?? [];
      stream.pathBytes = clientAddresses.map((address) => paths.filter((x) => String(x.remote).startsWith(`${address}:`)).reduce((a, x) => a + x.bytes, 0));
      const first = Math.min(...paths.map((x) => x.firstUs));
      const last = Math.max(...paths.map((x) => x.lastUs));
      const bytes = stream.pathBytes.reduce((a, b) => a + b, 0);
      stream.rateMbps = paths.length && last > first ? (bytes * 8) / (last - first) : null;
    }
  });
}
