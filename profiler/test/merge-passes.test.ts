import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildArchive } from "../src/archive.js";
import { mergePasses } from "../src/merge-passes.js";
import type { CdpEvent, Recording, RecordingManifest } from "../src/recording.js";

const ev = (method: string, params: Record<string, unknown>): CdpEvent => ({ method, params });
const timing = (requestTime: number) => ({ requestTime, dnsStart: -1, dnsEnd: -1, connectStart: -1, connectEnd: -1, sslStart: -1, sslEnd: -1, sendStart: 1, sendEnd: 2, receiveHeadersStart: 9, receiveHeadersEnd: 10 });

/** The content pass: the Network log of a slow load (times from 100 s on) of four requests. */
function contentPass(): Recording {
  const req = (id: string, url: string, ts: number, type: string, extra: Record<string, unknown> = {}) =>
    ev("Network.requestWillBeSent", {
      requestId: id, loaderId: id === "NAV-A" ? "NAV-A" : "NAV-A", frameId: "FRAME-A", timestamp: ts, wallTime: 1_700_000_000 + ts, type,
      request: { url, method: "GET", headers: { accept: "*/*" }, initialPriority: "Low" },
      initiator: { type: "parser", url: "https://a.test/", lineNumber: 3 }, ...extra,
    });
  const res = (id: string, ts: number, mimeType: string) =>
    ev("Network.responseReceived", { requestId: id, timestamp: ts, response: { status: 200, statusText: "OK", headers: { "content-type": mimeType, "x-content": "yes" }, mimeType, protocol: "h2", connectionId: 1, connectionReused: false, timing: timing(ts - 0.01) } });
  const done = (id: string, ts: number) => ev("Network.loadingFinished", { requestId: id, timestamp: ts, encodedDataLength: 500 });
  const events = [
    req("NAV-A", "https://a.test/", 100, "Document"), res("NAV-A", 100.05, "text/html"), done("NAV-A", 100.06),
    req("7.1", "https://a.test/app.js?t=111", 100.1, "Script"), res("7.1", 100.15, "text/javascript"), done("7.1", 100.16),
    // Sent by the script (the browser fetches a worker's script: the trace does not see it).
    req("7.2", "https://a.test/worker.js", 100.205, "Other", { initiator: { type: "script", stack: { callFrames: [{ functionName: "start", url: "https://a.test/app.js?t=111" }] } } }),
    res("7.2", 100.25, "text/javascript"), done("7.2", 100.26),
    req("7.3", "https://a.test/only-content.png", 100.3, "Image"), res("7.3", 100.35, "image/png"), done("7.3", 100.36),
  ];
  const archive = buildArchive(events);
  const bodies = new Map<string, Buffer>();
  for (const e of archive) {
    const data = Buffer.from(`body of ${e.url}`);
    const sha = `sha-${e.requestId}`;
    bodies.set(sha, data);
    e.body = { sha256: sha, size: data.length, base64Encoded: false };
  }
  const trace = [{ name: "EvaluateScript", ph: "X", ts: 100.2e6, dur: 0.01e6, args: { data: { url: "https://a.test/app.js?t=111" } } }];
  return { manifest: manifest("content", "FRAME-A"), events, trace, archive, bodies };
}

/** The timing pass: the trace of a fast load (from 200 s on), the script under another query string. */
function timingPass(): Recording {
  const send = (id: string, url: string, ts: number, resourceType: string) =>
    ({ name: "ResourceSendRequest", ph: "I", ts: ts * 1e6, args: { data: { requestId: id, frame: "FRAME-B", url, requestMethod: "GET", resourceType, priority: "High", initiator: { type: "parser", url: "https://a.test/" } } } });
  const recv = (id: string, ts: number, requestTime = ts - 0.005) =>
    ({ name: "ResourceReceiveResponse", ph: "I", ts: ts * 1e6, args: { data: { requestId: id, statusCode: 200, mimeType: "x", protocol: "h3", connectionId: 9, connectionReused: true, fromCache: false, timing: timing(requestTime), headers: [] } } });
  const data = (id: string, ts: number, n: number) => ({ name: "ResourceReceivedData", ph: "I", ts: ts * 1e6, args: { data: { requestId: id, encodedDataLength: n } } });
  const finish = (id: string, ts: number) => ({ name: "ResourceFinish", ph: "I", ts: ts * 1e6 + 50, args: { data: { requestId: id, finishTime: ts, encodedDataLength: 300, decodedBodyLength: 600, didFail: false } } });
  const trace = [
    // The renderer stamps a navigation's send and response as it commits, after the browser sent it.
    { name: "ResourceWillSendRequest", ph: "I", ts: 199.99e6, args: { data: { requestId: "NAV-B" } } },
    send("NAV-B", "https://a.test/", 200, "Document"), recv("NAV-B", 200.02, 199.995), data("NAV-B", 200.021, 100), data("NAV-B", 200.025, 50), finish("NAV-B", 200.026),
    send("9.1", "https://a.test/app.js?t=222", 200.03, "Script"), recv("9.1", 200.04), finish("9.1", 200.045),
    { name: "EvaluateScript", ph: "X", ts: 200.05e6, dur: 0.004e6, args: { data: { url: "https://a.test/app.js?t=222" } } },
    send("9.4", "https://a.test/only-timing.gif", 200.06, "Image"), recv("9.4", 200.07), finish("9.4", 200.08),
  ];
  const events = [ev("Page.frameNavigated", { frame: { id: "FRAME-B", url: "https://a.test/" } }), ev("Page.lifecycleEvent", { frameId: "FRAME-B", name: "load", timestamp: 200.1 })];
  return { manifest: { ...manifest("timing", "FRAME-B"), clock: { wallMinusMonotonicS: 1_000 } }, events, trace, archive: [], bodies: new Map() };
}

function manifest(startedAt: string, frame: string): RecordingManifest {
  return {
    schemaVersion: 1, kind: "pagepath-recording", tool: { name: "pagepath", version: "0" }, url: "https://a.test/", finalUrl: "https://a.test/",
    status: "complete", reason: null, startedAt, durationMs: 1, browser: { product: "", userAgent: "", executablePath: "" },
    conditions: { cpuThrottlingRate: 1, network: null, device: null }, stopPolicy: { quietMs: 0, capMs: 1 }, stoppedBy: "quiet",
    redaction: { enabled: true, headers: [] }, traceCategories: [], files: { events: true, trace: true, archive: true },
    lifecycle: { navigationStartMonotonic: null, navigationStartWallTime: null, domContentLoaded: null, load: null, firstPaint: null, firstContentfulPaint: null, largestContentfulPaint: null, frames: [] },
    frameTree: { id: frame, parentId: null, url: "https://a.test/", children: [] },
    counts: { events: 0, traceEvents: 0, requests: 0, bodies: 0, failedRequests: 0 },
  };
}

describe("a recording merged from a timing pass and a content pass", () => {
  const merged = mergePasses(contentPass(), timingPass());
  const byUrl = (u: string) => merged.archive.find((e) => e.url === u)!;

  it("takes ids and times from the timing pass, content from the content pass", () => {
    const doc = byUrl("https://a.test/");
    assert.equal(doc.requestId, "NAV-B");
    assert.equal(doc.frameId, "FRAME-B");
    assert.equal(doc.loaderId, "NAV-B");
    // Sent at the browser's stamp; headers in at requestTime + receiveHeadersEnd (199.995 + 10 ms).
    assert.equal(doc.times.start, 199.99);
    assert.ok(Math.abs(doc.times.response! - 200.005) < 1e-9, String(doc.times.response));
    assert.equal(doc.times.end, 200.026);
    assert.ok(Math.abs(doc.times.wallTime! - 1_199.99) < 1e-6);
    assert.equal(doc.response!.protocol, "h3");
    assert.ok(Math.abs(doc.response!.timing!.requestTime - 199.995) < 1e-9);
    assert.equal(doc.response!.headers["x-content"], "yes");
    assert.equal(doc.body!.sha256, "sha-NAV-A");
    assert.deepEqual(doc.priority, { initial: "High", final: "High" });
  });

  it("pairs a request whose query string changed between the loads by its path", () => {
    const js = merged.archive.find((e) => e.url.startsWith("https://a.test/app.js"))!;
    assert.equal(js.requestId, "9.1");
    assert.equal(js.url, "https://a.test/app.js?t=111", "the content pass's URL, which its body answers");
    assert.equal(js.body!.sha256, "sha-7.1");
  });

  it("places a request only the content pass saw inside the same script's evaluation in the timing pass", () => {
    const w = byUrl("https://a.test/worker.js");
    // 5 ms into a 10 ms evaluation in the content pass; the timing pass's lasted 4 ms, so its end.
    assert.ok(Math.abs(w.times.start - 200.054) < 1e-9, String(w.times.start));
    assert.ok(Math.abs(w.times.end! - w.times.start - 0.055) < 1e-9, "keeps its own duration");
    assert.equal(w.frameId, "FRAME-B");
    assert.equal(w.body!.sha256, "sha-7.2");
  });

  it("gives each request's event the initiator the content pass recorded, stack and all", () => {
    const sent = merged.events.find((e) => e.method === "Network.requestWillBeSent" && (e.params.request as { url: string }).url === "https://a.test/worker.js")!;
    assert.equal((sent.params.initiator as { stack: { callFrames: { functionName: string }[] } }).stack.callFrames[0]!.functionName, "start");
    assert.equal(byUrl("https://a.test/worker.js").initiator.url, "https://a.test/app.js?t=111");
  });

  it("keeps a request only the timing pass made without a body, and reports both kinds", () => {
    const gif = byUrl("https://a.test/only-timing.gif");
    assert.equal(gif.body, null);
    assert.match(gif.bodyMissing!, /content pass did not make/);
    assert.deepEqual(merged.manifest.passes!.timingOnly, ["https://a.test/only-timing.gif"]);
    assert.deepEqual(merged.manifest.passes!.contentOnly, ["https://a.test/worker.js", "https://a.test/only-content.png"]);
    assert.equal(merged.manifest.passes!.matchedRequests, 2);
  });

  it("writes the document's arrival as decoded bytes and dates the lifecycle from the timing pass", () => {
    const chunks = merged.events.filter((e) => e.method === "Network.dataReceived" && e.params.requestId === "NAV-B").map((e) => e.params.dataLength);
    // 150 bytes on the wire decode to the body's length, shared 2:1 as the chunks came.
    const size = byUrl("https://a.test/").body!.size;
    assert.deepEqual(chunks, [Math.round((100 * size) / 150), Math.round((50 * size) / 150)]);
    assert.equal(merged.manifest.lifecycle.navigationStartMonotonic, 199.99);
    assert.equal(merged.manifest.lifecycle.load, 110);
  });

  it("places a request only the content pass saw outside any script as the request before it moved", () => {
    const png = byUrl("https://a.test/only-content.png");
    assert.ok(Math.abs(png.times.start - (100.3 + (200.03 - 100.1))) < 1e-9, String(png.times.start));
    assert.deepEqual([...merged.bodies.keys()].sort(), ["sha-7.1", "sha-7.2", "sha-7.3", "sha-NAV-A"]);
  });
});
