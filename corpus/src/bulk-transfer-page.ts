import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Graph } from "@pagepath/graph-builder";
import { writeSyntheticRecording } from "./synthetic-recording.js";

const FRAME = "bulk-transfer-main-frame";

/**
 * A "page" that is one file and nothing else, for transport experiments that download a file
 * (seed 003 §5.2.3: a 20 MB download over one stream): a recording whose only response is the file
 * (random bytes, so no compression on the way could shrink it; no server delay) and a graph whose
 * document is that file, parsed in no time. The emulated browser's load time is then the time from
 * the first packet of the connection to the file's last byte, the seed's completion time, and the
 * page replays and simulates like any other over every protocol and transport.
 *
 * Writes DIR/recording and DIR/graph.json; returns the graph's path.
 */
export function writeBulkTransferPage(dir: string, origin: string, bytes: number): string {
  if (!Number.isInteger(bytes) || bytes <= 0) throw new Error(`a bulk transfer needs a whole positive number of bytes, not ${bytes}`);
  const url = `${origin}/bulk.bin`;
  const recording = writeSyntheticRecording(join(dir, "recording"), origin, [
    { path: "/bulk.bin", mimeType: "application/octet-stream", bytes, body: randomBytes(bytes), delayMs: 0, resourceType: "Document" },
  ]);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "graph.json");
  writeFileSync(file, JSON.stringify(bulkTransferGraph(resolve(recording), url, bytes), null, 1) + "\n");
  return file;
}

function bulkTransferGraph(recording: string, url: string, bytes: number): Graph {
  const base = { frameId: FRAME, excluded: null } as const;
  return {
    schemaVersion: 1,
    kind: "pagepath-graph",
    tool: { name: "pagepath", version: "0.1.0" },
    source: { recording, url, status: "complete", browser: "none (a synthetic bulk transfer)" },
    mode: "network-only",
    root: "dl0",
    mainFrame: FRAME,
    frames: [{ id: FRAME, parentId: null, url, firstDownload: "dl0", lastDownload: "dl0", dcl: "dcl0", load: "load0", beforeLoad: true }],
    nodes: [
      {
        ...base, id: "dl0", kind: "download", label: "bulk.bin", start: 0, end: 0, duration: 0,
        resource: {
          url, origin: new URL(url).origin, method: "GET", mimeType: "application/octet-stream", resourceType: "Document", status: 200, protocol: null,
          connection: null, privacyMode: false, archiveIds: ["1000"], redirects: [], bodySize: bytes, transferSize: bytes, serverDelayMs: 0,
          fromCache: null, preloaded: false, lazyBound: false, initiatorType: "other", initiatorUrl: null, priority: "VeryHigh",
        },
        chunk: { index: 0, offset: 0, bytes, last: true },
      },
      { ...base, id: "parse0", kind: "parse", label: "parse bulk.bin", start: 0, end: 0, duration: 0, parse: { url, startLine: null, endLine: null, index: 0, last: true, bodyReached: true } },
      { ...base, id: "dcl0", kind: "dcl", label: "DOMContentLoaded", start: 0, end: 0, duration: 0 },
      { ...base, id: "load0", kind: "load", label: "load", start: 0, end: 0, duration: 0 },
    ],
    edges: [
      { from: "dl0", to: "parse0", rule: "R3", how: "inferred" },
      { from: "parse0", to: "dcl0", rule: "completion-dcl", how: "inferred" },
      { from: "dcl0", to: "load0", rule: "completion-load", how: "inferred" },
    ],
    criticalPath: { nodes: ["dl0", "parse0", "dcl0", "load0"], totalMs: 0, breakdown: { network: 0, script: 0, parse: 0, css: 0, other: 0 } },
    recorded: { domContentLoaded: null, load: null, firstContentfulPaint: null, largestContentfulPaint: null, largestContentfulPaintMissing: "a bulk transfer paints nothing" },
    warnings: [],
  };
}
