import { randomBytes } from "node:crypto";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import type { IncomingHttpHeaders } from "node:http2";
import { dirname, extname, join } from "node:path";
import { quantile, writeSyntheticRecording } from "@pagepath/corpus";
import { h2load, type H2loadLoad } from "./h2load.js";
import { startNginx, type RunningNginx } from "./nginx.js";
import { relayedStderr, startReplayServer } from "@pagepath/runner";
import { tempDir } from "@pagepath/temp-dirs";
import { checkServedFiles, type ServedFile } from "./served-check.js";
import { processTreeCpuUs } from "./process-cpu.js";

/**
 * The replay server against nginx serving the same files with the same certificate, over
 * HTTP/1.1 and HTTP/2 on TLS: requests per second under load, and the mean time per request with
 * one request at a time (the latency the replay server adds to every response it replays).
 */
const ORIGIN = "https://www.bench.test";
const PAGEPATH_ADDRESS = "127.0.7.1";
const NGINX_ADDRESS = "127.0.7.2";
const REPEATS = 3;
const PROTOCOLS = ["http1", "h2"] as const;
const SERVERS = ["pagepath", "nginx"] as const;
type Protocol = (typeof PROTOCOLS)[number];
type Server = (typeof SERVERS)[number];

const MEASURES = {
  throughput: { unit: "req/s", clients: 8, h2Streams: 10, value: (r: { reqPerSec: number }) => r.reqPerSec },
  latency: { unit: "µs", clients: 1, h2Streams: 1, value: (r: { meanRequestUs: number }) => r.meanRequestUs },
} as const;
type Measure = keyof typeof MEASURES;

export interface ReplayBenchRow {
  protocol: Protocol;
  measure: Measure;
  unit: string;
  /** Medians over the repeats. */
  pagepath: number;
  nginx: number;
  ratio: number;
  /** Latency only: pagepath's median mean time per request minus nginx's. */
  addedUs: number | null;
  /**
   * pagepath / nginx for each repeat's two runs, which went back to back: their spread is what the
   * machine's drift (another guest's load) did to one comparison, where the medians above hide it.
   */
  pairRatios: number[];
  runs: Record<Server, number[]>;
  /**
   * Each server's CPU time (all its processes and threads, h2load's warm-up included) per request
   * h2load counted, µs, per run: what the machine's drift and another guest's load move far less
   * than a rate.
   */
  cpuUsPerRequest: Record<Server, number[]>;
  /** The median of each server's cpuUsPerRequest. */
  cpuMedianUs: Record<Server, number>;
  /** pagepath / nginx of cpuMedianUs: above 1, pagepath spends more a request. */
  cpuRatio: number;
}

export interface ReplayBenchResult {
  seconds: number;
  repeats: number;
  files: Array<{ path: string; mimeType: string; bytes: number }>;
  load: string;
  /** What h2load negotiated with both servers (checked to be the same). */
  tls: Record<Protocol, string>;
  headers: Record<Protocol, Record<Server, IncomingHttpHeaders>>;
  rows: ReplayBenchRow[];
}

/** 8 small scripts and styles, 8 images of 10 KB and 4 of 100 KB, random so nothing compresses. */
function benchFiles(): ServedFile[] {
  const files: ServedFile[] = [];
  const add = (n: number, bytes: number, make: (i: number) => [string, string]) => {
    for (let i = 0; i < n; i++) {
      const [path, mimeType] = make(i);
      files.push({ path, mimeType, body: randomBytes(bytes) });
    }
  };
  add(8, 1024, (i) => (i % 2 ? [`/static/style-${i}.css`, "text/css"] : [`/static/app-${i}.js`, "text/javascript"]));
  add(8, 10 * 1024, (i) => [`/img/icon-${i}.png`, "image/png"]);
  add(4, 100 * 1024, (i) => [`/img/photo-${i}.jpg`, "image/jpeg"]);
  return files;
}

const median = (xs: number[]) => quantile(xs, 0.5);

export async function benchReplay(seconds: number, log: (line: string) => void): Promise<ReplayBenchResult> {
  const root = tempDir("bench-replay");
  try {
    const files = benchFiles();
    const recording = writeSyntheticRecording(join(root, "recording"), ORIGIN, files.map((f) => ({ path: f.path, mimeType: f.mimeType, bytes: f.body.length, body: f.body, delayMs: 0 })));
    const docroot = join(root, "docroot");
    for (const f of files) {
      mkdirSync(dirname(join(docroot, f.path)), { recursive: true });
      writeFileSync(join(docroot, f.path), f.body);
    }
    const types = new Map(files.map((f) => [extname(f.path).slice(1), f.mimeType]));
    const steps = PROTOCOLS.length * REPEATS * Object.keys(MEASURES).length * SERVERS.length;
    let step = 0;
    const result: ReplayBenchResult = {
      seconds, repeats: REPEATS,
      files: files.map((f) => ({ path: f.path, mimeType: f.mimeType, bytes: f.body.length })),
      load: `h2load -t 1 -D ${seconds} --warm-up-time 500ms, all ${files.length} URIs in turn; throughput -c 8 -m 10 (HTTP/1.1: -m 1); latency -c 1 -m 1`,
      tls: { http1: "", h2: "" }, headers: {} as ReplayBenchResult["headers"], rows: [],
    };
    for (const protocol of PROTOCOLS) {
      const measured = await benchProtocol(protocol, root, recording, docroot, files, types, seconds, (what) => log(`[${++step}/${steps}] ${what}`));
      result.tls[protocol] = measured.tls;
      result.headers[protocol] = measured.headers;
      result.rows.push(...measured.rows);
    }
    return result;
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Both servers up for one protocol, checked to serve the same bytes, then measured in turn. */
async function benchProtocol(protocol: Protocol, root: string, recording: string, docroot: string, files: ServedFile[], types: Map<string, string>, seconds: number, progress: (what: string) => void) {
  const replayOut = join(root, `replay-${protocol}`);
  const replay = await startReplayServer([recording, "--out", replayOut, "--protocol", protocol === "http1" ? "h1" : protocol, "--transport", "tcp", "--delays", "zero", "--first-address", PAGEPATH_ADDRESS], [], 30_000);
  let nginx: RunningNginx | undefined;
  let code: number | null;
  let measured: { tls: string; headers: Record<Server, IncomingHttpHeaders>; rows: ReplayBenchRow[] };
  try {
    nginx = await startNginx({ dir: join(root, `nginx-${protocol}`), address: NGINX_ADDRESS, http2: protocol === "h2", docroot, cert: join(replayOut, "cert.pem"), key: join(replayOut, "key.pem"), types });
    const address: Record<Server, string> = { pagepath: PAGEPATH_ADDRESS, nginx: NGINX_ADDRESS };
    const headers = {
      pagepath: await checkServedFiles("pagepath", protocol, PAGEPATH_ADDRESS, ORIGIN, files),
      nginx: await checkServedFiles("nginx", protocol, NGINX_ADDRESS, ORIGIN, files),
    };
    const runs = { throughput: { pagepath: [], nginx: [] }, latency: { pagepath: [], nginx: [] } } as Record<Measure, Record<Server, number[]>>;
    const cpu = { throughput: { pagepath: [], nginx: [] }, latency: { pagepath: [], nginx: [] } } as Record<Measure, Record<Server, number[]>>;
    const pid: Record<Server, number> = { pagepath: replay.pid, nginx: nginx.pid };
    let tls: { server: Server; what: string } | undefined;
    for (let rep = 0; rep < REPEATS; rep++) {
      // Alternate which server goes first, so that drift in the machine's speed hits both.
      const order = rep % 2 ? [...SERVERS].reverse() : SERVERS;
      for (const measure of Object.keys(MEASURES) as Measure[]) {
        const m = MEASURES[measure];
        for (const server of order) {
          progress(`${protocol} ${measure}, ${server}`);
          const load: H2loadLoad = { protocol, connectTo: `${address[server]}:443`, uris: files.map((f) => ORIGIN + f.path), seconds, clients: m.clients, streams: protocol === "h2" ? m.h2Streams : 1 };
          const cpuBefore = processTreeCpuUs(pid[server]);
          const run = await h2load(load);
          cpu[measure][server].push((processTreeCpuUs(pid[server]) - cpuBefore) / run.succeeded);
          tls ??= { server, what: run.tls };
          if (run.tls !== tls.what) throw new Error(`${protocol}: h2load negotiated differently with the two servers, so they would not be compared like for like: ${tls.server}: ${tls.what}; ${server}: ${run.tls}`);
          runs[measure][server].push(m.value(run));
        }
      }
    }
    const rows = (Object.keys(MEASURES) as Measure[]).map((measure): ReplayBenchRow => {
      const [p, n] = [median(runs[measure].pagepath), median(runs[measure].nginx)];
      const pairRatios = runs[measure].pagepath.map((x, i) => x / runs[measure].nginx[i]!);
      const cpuMedianUs = { pagepath: median(cpu[measure].pagepath), nginx: median(cpu[measure].nginx) };
      return { protocol, measure, unit: MEASURES[measure].unit, pagepath: p, nginx: n, ratio: p / n, addedUs: measure === "latency" ? p - n : null, pairRatios, runs: runs[measure], cpuUsPerRequest: cpu[measure], cpuMedianUs, cpuRatio: cpuMedianUs.pagepath / cpuMedianUs.nginx };
    });
    measured = { tls: tls!.what, headers, rows };
  } finally {
    await nginx?.stop();
    code = await replay.stop();
  }
  // Reached only when the measurements went through; their error, if any, comes first.
  if (code !== 0) throw new Error(`pagepath-server (${protocol}) exited with ${code} on SIGTERM: ${relayedStderr(replay.stderr(), "pagepath-server")}`);
  return measured;
}
