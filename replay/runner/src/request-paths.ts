import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Graph } from "@pagepath/graph-builder";
import type { RequestPathBytes, RequestRecord } from "@pagepath/results";

/** One entry of a streams.jsonl line's `paths` (docs/formats/replay-server.md). */
interface ServerStreamPath {
  path: number;
  local: string;
  remote: string;
  bytes: number;
  packets: number | null;
  firstUs: number;
  lastUs: number;
}

interface ServerStream {
  connection: number;
  stream: number;
  url: string;
  times: { arrivalUs: number };
  paths?: ServerStreamPath[] | null;
}

/**
 * The client's requests with `paths` from what the replay servers logged sending for each
 * (streams.jsonl in `serverOut`): server times moved onto the run's clock (origins.json's
 * `clockStartUnixMs` against the run's `startedAt`), server paths onto the network's by the
 * client address at their far end (`clientAddresses`, path 0 first). Requests and server streams
 * are paired by URL, the n-th request for a URL with the n-th stream that arrived for it; a request
 * that followed redirects (the emulated browser keeps one record per chain) takes a stream for each
 * URL `chainOf` gives, its bytes added up. A request the servers did not log, or logged without
 * paths (MPTCP, tquic's own schedulers), or on a path of no client address, gets null.
 */
export function withRequestPaths(
  requests: RequestRecord[],
  serverOut: string,
  clientAddresses: string[],
  startedAt: string,
  chainOf: (q: RequestRecord) => string[] = (q) => [q.url],
): RequestRecord[] {
  const origins = JSON.parse(readFileSync(join(serverOut, "origins.json"), "utf8"));
  const streamsFile = join(serverOut, "streams.jsonl");
  if (typeof origins.clockStartUnixMs !== "number" || !existsSync(streamsFile)) return requests.map((q) => ({ ...q, paths: null }));
  const offsetMs = origins.clockStartUnixMs - Date.parse(startedAt);
  const streams: ServerStream[] = readFileSync(streamsFile, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line));
  streams.sort((a, b) => a.times.arrivalUs - b.times.arrivalUs || a.connection - b.connection || a.stream - b.stream);
  const byUrl = new Map<string, ServerStream[]>();
  for (const s of streams) {
    const queue = byUrl.get(sameUrl(s.url)) ?? [];
    queue.push(s);
    byUrl.set(sameUrl(s.url), queue);
  }
  return requests.map((q) => {
    const hops = chainOf(q).map((url) => byUrl.get(sameUrl(url))?.shift());
    const logged = hops.every((s) => s?.paths) ? hops.flatMap((s) => s!.paths!) : null;
    return { ...q, paths: logged ? networkPaths(logged, clientAddresses, offsetMs) : null };
  });
}

/** The server's entries by network path, merged where two server paths share one (a rebinding). */
function networkPaths(paths: ServerStreamPath[], clientAddresses: string[], offsetMs: number): RequestPathBytes[] | null {
  const byPath = new Map<number, RequestPathBytes>();
  const ms = (us: number) => Math.max(0, Math.round((us / 1000 + offsetMs) * 1000) / 1000);
  for (const p of paths) {
    const path = clientAddresses.indexOf(host(p.remote));
    if (path < 0) return null;
    const known = byPath.get(path);
    const firstMs = ms(p.firstUs);
    const lastMs = ms(p.lastUs);
    if (!known) {
      byPath.set(path, { path, bytes: p.bytes, packets: p.packets, firstMs, lastMs });
      continue;
    }
    known.bytes += p.bytes;
    known.packets = known.packets === null || p.packets === null ? null : known.packets + p.packets;
    known.firstMs = Math.min(known.firstMs, firstMs);
    known.lastMs = Math.max(known.lastMs, lastMs);
  }
  return [...byPath.values()].sort((a, b) => a.path - b.path);
}

/** "10.10.1.2:40000" or "[fd00::2]:40000" without its port. */
function host(address: string): string {
  const bracketed = /^\[(.*)\]:\d+$/.exec(address);
  if (bracketed) return bracketed[1]!;
  return address.replace(/:\d+$/, "");
}

/** sameUrl's answers: a sweep pairs the same few hundred URLs of a page run after run, and parsing one costs microseconds. */
const spelled = new Map<string, string>();
const SPELLED_KEPT = 100_000;

/** A URL as both ends spell it: the default port and the fragment dropped. */
function sameUrl(url: string): string {
  const known = spelled.get(url);
  if (known !== undefined) return known;
  let same = url;
  try {
    const u = new URL(url);
    u.hash = "";
    same = u.href;
  } catch {
    // Not a URL the parser takes: compared as written.
  }
  if (spelled.size >= SPELLED_KEPT) spelled.clear();
  spelled.set(url, same);
  return same;
}

/** The URLs a request of the emulated browser went through: its graph node's redirect hops, then its resource. */
export function redirectChain(graph: Graph): (q: RequestRecord) => string[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  return (q) => {
    const r = q.nodeId === null ? undefined : byId.get(q.nodeId)?.resource;
    if (!r || r.redirects.length === 0 || sameUrl(r.redirects[0]!) !== sameUrl(q.url)) return [q.url];
    return [...r.redirects, r.url];
  };
}
