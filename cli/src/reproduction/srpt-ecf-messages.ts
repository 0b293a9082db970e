/**
 * The messages of seed 000's SRPT-ECF experiment (§4.7, Figs 4.11-4.12): one origin's responses
 * of a recorded page, each released when its request was made. The seed took the 132 images of a
 * Wikipedia page; this takes, among the pages given, the origin that served the most images.
 */
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Graph } from "@pagepath/graph-builder";
import { SIM_BINARY, requireBinary } from "@pagepath/runner";

export interface PageMessages {
  site: string;
  origin: string;
  images: number;
  messages: { url: string; size: number; releaseMs: number }[];
}

/** One scheduler's messages: each one's URL, completion (ms after its request) and [request, end). */
export interface Completions {
  urls: string[];
  completionMs: number[];
  intervals: [number, number][];
  /** Runs that failed (a page load's). */
  failed: number;
}

export function noCompletions(): Completions {
  return { urls: [], completionMs: [], intervals: [], failed: 0 };
}

/** Seed 000 §4.7's two paths: 1050 kbit/s with 67 ms RTT and 750 kbit/s with 151 ms. */
export const SEED_PATHS = [
  { rateMbit: 1.05, rttMs: 67 },
  { rateMbit: 0.75, rttMs: 151 },
];

/** SRPT-ECF and the three it is set against in Figs 4.11-4.12. */
export const SEED_SCHEDULERS = [
  { name: "srpt-ecf", label: "SRPT-ECF" },
  { name: "sa-ecf", label: "SA-ECF (round-robin, equal weights)" },
  { name: "lowest-rtt", label: "FCFS with lowest-RTT" },
  { name: "srpt", label: "SRPT with lowest-RTT" },
];

/** The network resources of one origin, sent over its credentialed connection. */
function originMessages(graph: Graph, origin: string): PageMessages["messages"] {
  return graph.nodes
    .filter((n) => n.kind === "resource" && n.excluded === null && n.resource && !n.resource.fromCache && !n.resource.privacyMode && n.resource.origin === origin)
    .map((n) => ({ url: n.resource!.url, size: Math.max(1, n.resource!.transferSize || n.resource!.bodySize), releaseMs: Math.max(0, n.start) }))
    .sort((a, b) => a.releaseMs - b.releaseMs);
}

/** Of `sites` (graphs in `graphsDir`), the origin that served the most images, and its messages. */
export function pickPage(graphsDir: string, sites: string[]): PageMessages {
  let best: PageMessages | undefined;
  for (const site of sites) {
    const graph = JSON.parse(readFileSync(join(graphsDir, `${site}.json`), "utf8")) as Graph;
    const images = new Map<string, number>();
    for (const n of graph.nodes) {
      if (n.kind !== "resource" || n.excluded !== null || !n.resource || n.resource.fromCache || n.resource.resourceType !== "Image") continue;
      images.set(n.resource.origin, (images.get(n.resource.origin) ?? 0) + 1);
    }
    for (const [origin, count] of images) {
      if (!best || count > best.images) best = { site, origin, images: count, messages: originMessages(graph, origin) };
    }
  }
  if (!best) throw new Error(`none of ${sites.join(", ")} loads an image: the experiment needs a page of many images`);
  return best;
}

/** Per scheduler, each message's completion over the seed's idealised paths. */
export function messagesAlone(page: PageMessages): Map<string, Completions> {
  const input = {
    paths: SEED_PATHS.map((p) => ({ rateMbit: p.rateMbit, oneWayMs: p.rttMs / 2, cwndBytes: null })),
    messages: page.messages.map((m) => ({ size: m.size, releaseMs: m.releaseMs })),
    packetBytes: 1200,
    schedulers: SEED_SCHEDULERS.map((s) => s.name),
  };
  const out = JSON.parse(execFileSync(requireBinary(SIM_BINARY), ["--messages"], { input: JSON.stringify(input), encoding: "utf8", maxBuffer: 64 << 20 })) as {
    schedulers: { name: string; completionMs: number[] }[];
  };
  const completions = (c: number[]): Completions => ({
    urls: page.messages.map((m) => m.url),
    completionMs: c,
    intervals: page.messages.map((m, i): [number, number] => [m.releaseMs, m.releaseMs + c[i]!]),
    failed: 0,
  });
  return new Map(out.schedulers.map((s) => [s.name, completions(s.completionMs)]));
}
