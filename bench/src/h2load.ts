import { spawn } from "node:child_process";

export interface H2loadLoad {
  /** HTTP/1.1 (h2load --h1) or HTTP/2, both over TLS. */
  protocol: "http1" | "h2";
  /** Where to connect ("ADDR:PORT"); the URIs keep the recorded origin so SNI and Host match it. */
  connectTo: string;
  uris: string[];
  seconds: number;
  clients: number;
  /** Concurrent streams per client (HTTP/1.1 has no multiplexing: pass 1). */
  streams: number;
}

export interface H2loadRun {
  reqPerSec: number;
  /** h2load's mean "time for request": from sending a request to its response's last byte. */
  meanRequestUs: number;
  succeeded: number;
  /** What was negotiated, so that two servers can be checked to be compared like for like. */
  tls: string;
}

/**
 * One timing-based h2load run on one core (-t 1), after half a second of warm-up so the TLS
 * handshakes and cold caches stay out of the numbers. A run with any failure is an error.
 */
export async function h2load(load: H2loadLoad): Promise<H2loadRun> {
  const args = ["-t", "1", "-c", String(load.clients), "-m", String(load.streams), "-D", String(load.seconds), "--warm-up-time", "500ms", `--connect-to=${load.connectTo}`];
  if (load.protocol === "http1") args.push("--h1");
  const { code, output } = await run([...args, ...load.uris], (load.seconds + 30) * 1000);
  if (code !== 0) throw new H2loadError(`exited with ${code}`, output);
  return parseH2load(output);
}

function run(args: string[], timeoutMs: number): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn("h2load", args, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`cannot run h2load (Debian: apt-get install nghttp2-client): ${e.message}`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

export class H2loadError extends Error {
  constructor(why: string, output: string) {
    const shown = output.split("\n").filter((l) => !l.startsWith("progress:")).join("\n").trim();
    super(`h2load: ${why}\n--- h2load output ---\n${shown || "(none)"}`);
  }
}

const UNIT_US: Record<string, number> = { ns: 1e-3, us: 1, ms: 1e3, s: 1e6 };

function durationUs(text: string, output: string): number {
  const m = /^([\d.]+)(ns|us|ms|s)$/.exec(text);
  if (!m) throw new H2loadError(`cannot read the duration ${JSON.stringify(text)}`, output);
  return Number(m[1]) * UNIT_US[m[2]!]!;
}

export function parseH2load(output: string): H2loadRun {
  const line = (re: RegExp, what: string): RegExpExecArray => {
    const m = re.exec(output);
    if (!m) throw new H2loadError(`no ${what} line in its output`, output);
    return m;
  };
  const finished = line(/^finished in \S+, ([\d.]+) req\/s/m, `"finished in ..., N req/s"`);
  const requests = line(/^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, (\d+) errored, (\d+) timeout/m, `"requests:"`);
  const status = line(/^status codes: (\d+) 2xx, (\d+) 3xx, (\d+) 4xx, (\d+) 5xx/m, `"status codes:"`);
  const time = line(/^time for request:\s+(\S+)\s+(\S+)\s+(\S+)/m, `"time for request:"`);
  const [succeeded, failed, errored, timeouts] = [4, 5, 6, 7].map((i) => Number(requests[i]));
  if (failed || errored || timeouts) throw new H2loadError(`${failed} failed, ${errored} errored, ${timeouts} timed out`, output);
  const [ok, redirect, client, server] = [1, 2, 3, 4].map((i) => Number(status[i]));
  if (redirect || client || server) throw new H2loadError(`non-2xx responses: ${redirect} 3xx, ${client} 4xx, ${server} 5xx`, output);
  if (!succeeded || !ok) throw new H2loadError("no request succeeded", output);
  const tls = ["TLS Protocol", "Cipher", "Server Temp Key", "Application protocol"].map((k) => new RegExp(`^${k}: (.*)$`, "m").exec(output)?.[1] ?? "?");
  return { reqPerSec: Number(finished[1]), meanRequestUs: durationUs(time[3]!, output), succeeded: succeeded!, tls: tls.join(", ") };
}
