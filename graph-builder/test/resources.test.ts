import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { ArchiveEntry } from "@pagepath/profiler";
import { resourceInfo } from "../src/resources.js";

type Response = NonNullable<ArchiveEntry["response"]>;

function entry(url: string, response: Partial<Response> | null, fromCache: ArchiveEntry["fromCache"] = null): ArchiveEntry {
  return {
    id: url, requestId: "R", url, method: "GET", frameId: "F", loaderId: "L", resourceType: "Image",
    initiator: { type: "parser", url: null, lineNumber: null, stackFunctions: [] },
    priority: { initial: "Low", final: "Low" }, requestHeaders: {}, postData: null,
    times: { start: 1, response: 1.1, end: 1.2, wallTime: 1 },
    response: response && {
      status: 200, statusText: "OK", headers: {}, mimeType: "image/png", protocol: "h2",
      remoteAddress: "192.0.2.1:443", connectionId: "12", connectionReused: true, timing: null, ...response,
    },
    fromCache, redirectedTo: null, sizes: { encodedDataLength: 0, bodySize: 0 }, body: null, bodyMissing: null, failure: null,
    serverDelay: { ms: null, method: "not-measurable", rttMs: null },
  };
}

/** The graph's clock for these entries: navigation started at 1 s on the monotonic clock. */
const ms = (s: number) => Math.round((s - 1) * 1e6) / 1000;

/** CDP's ResourceTiming as Chromium reports a request that opened a TLS connection: ms after requestTime. */
const fresh = {
  requestTime: 1.001, dnsStart: 0.5, dnsEnd: 2, connectStart: 2, connectEnd: 30, sslStart: 10, sslEnd: 30,
  sendStart: 30.5, sendEnd: 31, receiveHeadersStart: 80, receiveHeadersEnd: 81,
};

describe("a resource's phases", () => {
  it("are its ResourceTiming on the graph's clock: queued until DNS, connect until TLS, waiting until the headers' first byte, downloading until the end", () => {
    assert.deepEqual(resourceInfo([entry("https://a.test/x.png", { timing: fresh })], ms).phases, {
      queued: { start: 0, end: 1.5 },
      dns: { start: 1.5, end: 3 },
      connect: { start: 3, end: 11 },
      ssl: { start: 11, end: 31 },
      send: { start: 31.5, end: 32 },
      wait: { start: 32, end: 81 },
      download: { start: 81, end: 200 },
    });
  });

  it("leave out what a reused connection did not do, and are the final hop's for a redirected request", () => {
    const reused = { ...fresh, requestTime: 1.1, dnsStart: -1, dnsEnd: -1, connectStart: -1, connectEnd: -1, sslStart: -1, sslEnd: -1, sendStart: 1, sendEnd: 1.5, receiveHeadersStart: 40, receiveHeadersEnd: 41 };
    const hop = (url: string, timing: typeof fresh, start: number) => ({ ...entry(url, { timing }), times: { start, response: start, end: start === 1 ? 1.1 : 1.3, wallTime: 1 } });
    const phases = resourceInfo([hop("https://a.test/old", fresh, 1), hop("https://a.test/new.png", reused, 1.1)], ms).phases!;
    assert.deepEqual(phases, {
      queued: { start: 100, end: 101 }, dns: null, connect: null, ssl: null,
      send: { start: 101, end: 101.5 }, wait: { start: 101.5, end: 140 }, download: { start: 140, end: 300 },
    });
  });

  it("never overlap, though Chromium stamps some marks a little out of order", () => {
    const early = { ...fresh, sendStart: 29.9, receiveHeadersStart: -1, receiveHeadersEnd: 81 };
    const p = resourceInfo([entry("https://a.test/x.png", { timing: early })], ms).phases!;
    assert.deepEqual(p.send, { start: 31, end: 32 });
    assert.deepEqual(p.wait, { start: 32, end: 82 });
  });

  it("are null without a ResourceTiming: no response, or a memory-cache hit", () => {
    assert.equal(resourceInfo([entry("https://a.test/x.png", null)], ms).phases, null);
    assert.equal(resourceInfo([entry("https://a.test/x.png", {}, "memory")], ms).phases, null);
  });
});

describe("a resource's connection", () => {
  it("is the one the response came over, as a number", () => {
    assert.deepEqual(resourceInfo([entry("https://a.test/x.png", {})], ms).connection, { id: 12, reused: true, remoteAddress: "192.0.2.1:443" });
  });

  it("is the final hop's for a redirected request", () => {
    const hops = [entry("https://a.test/old", { status: 302, connectionId: "3", connectionReused: false }), entry("https://b.test/new.png", { connectionId: "9" })];
    assert.equal(resourceInfo(hops, ms).connection?.id, 9);
  });

  it("is null for a cache hit, even one whose response still names the connection it was first fetched over", () => {
    assert.equal(resourceInfo([entry("https://a.test/x.png", { connectionId: "0", connectionReused: false }, "disk")], ms).connection, null);
    assert.equal(resourceInfo([entry("https://a.test/x.png", {}, "memory")], ms).connection, null);
  });

  it("is null for a data: URL (Chromium's connection 0), an unknown id and a missing response", () => {
    assert.equal(resourceInfo([entry("data:image/png;base64,AAAA", { protocol: "data", connectionId: "0", remoteAddress: null })], ms).connection, null);
    assert.equal(resourceInfo([entry("https://a.test/x.png", { connectionId: null })], ms).connection, null);
    assert.equal(resourceInfo([entry("https://a.test/x.png", null)], ms).connection, null);
  });
});

describe("a resource's priorities", () => {
  it("keep the one the request was made with beside the last one, which a layout raised", () => {
    const raised = { ...entry("https://a.test/hero.png", { timing: fresh }), priority: { initial: "Low", final: "High" } };
    const info = resourceInfo([raised], ms);
    assert.deepEqual([info.initialPriority, info.priority], ["Low", "High"]);
  });
});
