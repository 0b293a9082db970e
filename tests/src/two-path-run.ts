/**
 * TEST INPUT, written by hand, not a measurement: an emulated HTTP/3 replay of the two-frames graph
 * vector over multipath QUIC on a fast path (10 Mbit/s, 20 ms) and a slow one (2 Mbit/s, 100 ms) with
 * ECF, as a run of it would look. Node times are the recorded ones x 1.2 plus 25 ms of handshake; each
 * request's bytes per path are its body plus 48 bytes of HTTP/3 headers, in packets of up to 1200 bytes,
 * leaving the server one path delay (10 or 50 ms) before the client had them. ECF put the start of the
 * 30 kB app.js on the slow path too (7300 bytes, 100 of them retransmitted), everything else on the
 * fast one. Wire totals add QUIC's overhead and two handshakes, and the connections' counts add up to them.
 */
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { Graph } from "@pagepath/graph-builder";
import type { RunResult } from "@pagepath/results";

export const TWO_FRAMES_GRAPH = fileURLToPath(new URL("../../../graph-builder/test-vectors/valid/two-frames.json", import.meta.url));

const at = (t: number) => (t === 0 ? 0 : Math.round((t * 1.2 + 25) * 10) / 10);

export function twoPathRun(graphPath = "graphs/two-frames.json"): RunResult {
  const graph = JSON.parse(readFileSync(TWO_FRAMES_GRAPH, "utf8")) as Graph;
  const timings = graph.nodes.filter((n) => n.excluded === null).map((n) => ({ nodeId: n.id, start: at(n.start), end: at(n.end) }));
  const queue = { discipline: "droptail" as const, packets: 17 };
  return {
    schemaVersion: 1,
    kind: "pagepath-run",
    experiment: null,
    site: { name: "two-frames", graph: graphPath, graphSha256: createHash("sha256").update(readFileSync(TWO_FRAMES_GRAPH)).digest("hex") },
    client: "emulated",
    configuration: {
      protocol: "h3",
      transport: "mpquic",
      network: {
        name: "10M-20ms_2M-100ms",
        paths: [
          { upMbps: 10, downMbps: 10, rttMs: 20, loss: 0, queue },
          { upMbps: 2, downMbps: 2, rttMs: 100, loss: 0, queue },
        ],
      },
      serverModel: "out-of-order",
      priority: "none",
      chunkSizeBytes: 16384,
      connectionsPerOrigin: 1,
      emulation: { preloader: true, cpuFactor: 1, waitFor: "load" },
      scheduler: { name: "ecf", options: { beta: "1" } },
    },
    run: 0,
    seed: 7,
    versions: { pagepath: "test-fixture", quic: "tquic 1.6.0 (patched)" },
    startedAt: "2025-01-01T00:00:00.000Z",
    status: "ok",
    error: null,
    timeoutMs: 30_000,
    metrics: { domContentLoadedMs: at(104), loadMs: at(142), graphCompleteMs: at(142) },
    nodeTimings: timings,
    requests: [
      { url: "https://a.test/frames.html", nodeId: "d0", status: 200, bodyBytes: 1400, startMs: 0, endMs: 85, connection: "c0", paths: [{ path: 0, bytes: 1448, packets: 2, firstMs: 31, lastMs: 75 }] },
      { url: "https://a.test/style.css", nodeId: "css1", status: 200, bodyBytes: 2000, startMs: 64.6, endMs: 109, connection: "c0", paths: [{ path: 0, bytes: 2048, packets: 2, firstMs: 75.2, lastMs: 99 }] },
      {
        url: "https://a.test/app.js",
        nodeId: "js1",
        status: 200,
        bodyBytes: 30000,
        startMs: 70.6,
        endMs: 133,
        connection: "c0",
        paths: [
          { path: 0, bytes: 22848, packets: 20, firstMs: 81.1, lastMs: 123 },
          { path: 1, bytes: 7300, packets: 7, firstMs: 81.5, lastMs: 83 },
        ],
      },
      { url: "https://a.test/api/data.json", nodeId: "xhr1", status: 200, bodyBytes: 300, startMs: 140.2, endMs: 169, connection: "c0", paths: [{ path: 0, bytes: 348, packets: 1, firstMs: 151, lastMs: 151 }] },
      { url: "https://b.test/frame.html", nodeId: "fd0", status: 200, bodyBytes: 600, startMs: 148.6, endMs: 193, connection: "c1", paths: [{ path: 0, bytes: 648, packets: 1, firstMs: 181.2, lastMs: 181.2 }] },
    ],
    connections: [
      { id: "c0", origin: "https://a.test:443", protocol: "h3", transport: "mpquic", openedMs: 0, closedMs: null, paths: [{ path: 0, bytesUp: 3120, bytesDown: 33180 }, { path: 1, bytesUp: 890, bytesDown: 8021 }] },
      { id: "c1", origin: "https://b.test:443", protocol: "h3", transport: "mpquic", openedMs: 148.6, closedMs: null, paths: [{ path: 0, bytesUp: 1091, bytesDown: 5347 }, { path: 1, bytesUp: 240, bytesDown: 370 }] },
    ],
    paths: [
      { path: 0, bytesUp: 4211, bytesDown: 38527 },
      { path: 1, bytesUp: 1130, bytesDown: 8391 },
    ],
    warnings: [],
  };
}
