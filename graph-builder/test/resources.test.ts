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

describe("a resource's connection", () => {
  it("is the one the response came over, as a number", () => {
    assert.deepEqual(resourceInfo([entry("https://a.test/x.png", {})]).connection, { id: 12, reused: true, remoteAddress: "192.0.2.1:443" });
  });

  it("is the final hop's for a redirected request", () => {
    const hops = [entry("https://a.test/old", { status: 302, connectionId: "3", connectionReused: false }), entry("https://b.test/new.png", { connectionId: "9" })];
    assert.equal(resourceInfo(hops).connection?.id, 9);
  });

  it("is null for a cache hit, even one whose response still names the connection it was first fetched over", () => {
    assert.equal(resourceInfo([entry("https://a.test/x.png", { connectionId: "0", connectionReused: false }, "disk")]).connection, null);
    assert.equal(resourceInfo([entry("https://a.test/x.png", {}, "memory")]).connection, null);
  });

  it("is null for a data: URL (Chromium's connection 0), an unknown id and a missing response", () => {
    assert.equal(resourceInfo([entry("data:image/png;base64,AAAA", { protocol: "data", connectionId: "0", remoteAddress: null })]).connection, null);
    assert.equal(resourceInfo([entry("https://a.test/x.png", { connectionId: null })]).connection, null);
    assert.equal(resourceInfo([entry("https://a.test/x.png", null)]).connection, null);
  });
});
