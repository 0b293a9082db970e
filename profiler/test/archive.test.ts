import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { buildArchive } from "../src/archive.js";
import { toHar } from "../src/har.js";
import type { CdpEvent, RecordingManifest } from "../src/recording.js";

const ev = (method: string, params: Record<string, unknown>): CdpEvent => ({ method, params });
const req = (id: string, url: string, ts: number, extra: Record<string, unknown> = {}) =>
  ev("Network.requestWillBeSent", {
    requestId: id, loaderId: "L", frameId: "F", timestamp: ts, wallTime: 1_700_000_000 + ts, type: "Image",
    request: { url, method: "GET", headers: { Accept: "*/*" }, initialPriority: "Low" },
    initiator: { type: "script", stack: { callFrames: [{ functionName: "", url: "" }], parent: { description: "setTimeout", callFrames: [{ functionName: "later", url: "https://a.test/app.js" }] } } },
    ...extra,
  });
const res = (status: number, extra: Record<string, unknown> = {}) => ({
  status, statusText: "", headers: { "content-type": "image/png" }, mimeType: "image/png", protocol: "h2",
  remoteIPAddress: "127.0.0.1", remotePort: 443, connectionId: 5, connectionReused: true,
  timing: { requestTime: 10, dnsStart: -1, dnsEnd: -1, connectStart: -1, connectEnd: -1, sslStart: -1, sslEnd: -1, sendStart: 1, sendEnd: 2, receiveHeadersStart: 12, receiveHeadersEnd: 13 },
  ...extra,
});

describe("archive from the CDP network log", () => {
  const events = [
    req("1", "https://a.test/old.png", 10),
    req("1", "https://a.test/new.png", 10.05, { redirectResponse: res(301, { headers: { location: "/new.png" } }) }),
    ev("Network.resourceChangedPriority", { requestId: "1", newPriority: "High" }),
    ev("Network.responseReceived", { requestId: "1", timestamp: 10.1, response: res(200) }),
    ev("Network.responseReceivedExtraInfo", { requestId: "1", headers: { "content-type": "image/png", "x-wire": "yes" } }),
    ev("Network.loadingFinished", { requestId: "1", timestamp: 10.2, encodedDataLength: 900 }),
    req("2", "https://a.test/new.png", 11),
    ev("Network.requestServedFromCache", { requestId: "2" }),
    ev("Network.responseReceived", { requestId: "2", timestamp: 11.01, response: res(200, { timing: undefined, connectionId: 0 }) }),
    ev("Network.loadingFinished", { requestId: "2", timestamp: 11.02, encodedDataLength: 0 }),
    req("3", "https://gone.test/x.js", 12),
    ev("Network.loadingFailed", { requestId: "3", timestamp: 12.5, errorText: "net::ERR_NAME_NOT_RESOLVED", canceled: false }),
  ];
  const archive = buildArchive(events);

  it("makes one entry per redirect hop, linked by requestId", () => {
    assert.deepEqual(archive.map((e) => e.id), ["1", "1#1", "2", "3"]);
    assert.equal(archive[0]!.response!.status, 301);
    assert.equal(archive[0]!.redirectedTo, "https://a.test/new.png");
    assert.equal(archive[1]!.response!.status, 200);
  });

  it("keeps the initiator's URL and function names through async parents", () => {
    assert.equal(archive[1]!.initiator.url, "https://a.test/app.js");
    assert.deepEqual(archive[1]!.initiator.stackFunctions, ["(anonymous)", "<setTimeout>", "later"]);
  });

  it("tracks priority changes, wire headers, cache hits and failures", () => {
    assert.deepEqual(archive[1]!.priority, { initial: "Low", final: "High" });
    assert.equal(archive[1]!.response!.headers["x-wire"], "yes");
    assert.equal(archive[2]!.fromCache, "memory");
    assert.equal(archive[3]!.failure!.errorText, "net::ERR_NAME_NOT_RESOLVED");
    assert.equal(archive[3]!.response, null);
  });

  it("exports to HAR with the redirect, the cache hit and the failure", () => {
    const manifest = {
      tool: { version: "test" }, browser: { product: "Chrome/1" }, url: "https://a.test/", finalUrl: null, status: "complete", reason: null,
      startedAt: new Date(0).toISOString(),
      lifecycle: { navigationStartWallTime: 1_700_000_010, domContentLoaded: 50, load: 80 },
    } as unknown as RecordingManifest;
    const har = toHar({ manifest, events, archive }, () => Buffer.alloc(0));
    const [hop, target, cached, failed] = har.log.entries;
    assert.equal(hop.response.redirectURL, "https://a.test/new.png");
    assert.equal(target.timings.wait, 10);
    assert.equal(target._priority, "High");
    assert.equal(target._initiator.stack.parent.description, "setTimeout");
    assert.equal(cached._fromCache, "memory");
    assert.equal(failed.response._error, "net::ERR_NAME_NOT_RESOLVED");
    assert.deepEqual(har.log.pages[0].pageTimings, { onContentLoad: 50, onLoad: 80 });
  });
});
