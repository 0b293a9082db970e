import { execFile } from "node:child_process";
import { join } from "node:path";
import { promisify } from "node:util";
import { NET_BINARY, incompleteFetch, type FetchedResponse } from "@pagepath/runner";

const run = promisify(execFile);
const FETCH = join(process.cwd(), "replay", "target", "release", "pagepath-fetch");

/** The slowest transfer waited for: a fetch slower than this counts as failed. */
const SLOWEST_MBPS = 20;

export interface BulkFetch {
  /** The topology (pagepath net) the client runs in. */
  topology: string;
  address: string;
  host: string;
  /** The client's addresses, one per path it uses (the first opens the connection). */
  locals: string[];
  multipath: boolean;
  targets: string[];
  /** The bytes all targets add up to. */
  bytes: number;
}

export type BulkLoad =
  | {
      /** From the first request to the last byte. */
      mbps: number;
      /** Bytes the client received over each of its addresses, in `locals` order. */
      pathBytes: number[];
      /** CPU time the client used (pagepath-fetch's own count), µs. */
      clientCpuUs: number;
      /** The client process's wall time, ms: what its CPU time is spread over. */
      wallMs: number;
      /** Each target's request and last byte, µs since the connection was opened. */
      responses: { target: string; startUs: number; endUs: number }[];
    }
  | { failed: string };

/** One pagepath-fetch of every target at once over HTTP/3, checked whole. */
export async function bulkFetch(f: BulkFetch): Promise<BulkLoad> {
  const timeout = Math.ceil((f.bytes * 8) / (SLOWEST_MBPS * 1e6)) + 5;
  const args = ["exec", f.topology, "client", "--", FETCH, "--connect", `${f.address}:443`, "--host", f.host, ...f.locals.flatMap((l) => ["--local", l]), ...(f.multipath ? ["--multipath"] : []), "--timeout-s", String(timeout), ...f.targets];
  const began = performance.now();
  const fetched = await run(NET_BINARY, args, { maxBuffer: 1 << 20 }).catch((e) => ({ error: String(e.stderr || e.message).trim() }));
  const wallMs = performance.now() - began;
  if ("error" in fetched) return { failed: fetched.error.split("\n").at(-1)! };
  const report = JSON.parse(fetched.stdout.trim().split("\n").at(-1)!);
  const responses: FetchedResponse[] = report.responses;
  const failed = incompleteFetch(responses, f.bytes);
  if (failed !== null) return { failed };
  // Whole responses with status 200 carry both times.
  const start = Math.min(...responses.map((r) => r.startUs!));
  const end = Math.max(...responses.map((r) => r.endUs!));
  const pathBytes = f.locals.map((local) => report.paths.find((p: any) => p.local.startsWith(`${local}:`))?.bytesReceived ?? 0);
  return { mbps: (f.bytes * 8) / (end - start), pathBytes, clientCpuUs: report.cpuUs, wallMs, responses: responses.map((r) => ({ target: r.target, startUs: r.startUs!, endUs: r.endUs! })) };
}
