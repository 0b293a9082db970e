import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { estimateServerDelays, handshakeRtt, timeToFirstByte } from "../src/server-delay.js";
import type { ArchiveEntry, ResourceTiming } from "../src/recording.js";

const NONE = { dnsStart: -1, dnsEnd: -1, connectStart: -1, connectEnd: -1, sslStart: -1, sslEnd: -1 };

function timing(t: Partial<ResourceTiming>): ResourceTiming {
  return { requestTime: 1, ...NONE, sendStart: 0, sendEnd: 0, receiveHeadersStart: -1, receiveHeadersEnd: -1, ...t };
}

function entry(url: string, connectionId: string, t: ResourceTiming | null, fromCache: ArchiveEntry["fromCache"] = null): ArchiveEntry {
  return {
    id: url, requestId: url, url, method: "GET", frameId: "F", loaderId: "L", resourceType: "Script",
    initiator: { type: "parser", url: null, lineNumber: null, stackFunctions: [] },
    priority: { initial: "High", final: "High" }, requestHeaders: {}, postData: null,
    times: { start: 1, response: 1.1, end: 1.2, wallTime: 1 },
    response: { status: 200, statusText: "OK", headers: {}, mimeType: "text/javascript", protocol: "h2", remoteAddress: null, connectionId, connectionReused: false, timing: t },
    fromCache, redirectedTo: null, sizes: { encodedDataLength: 0, bodySize: 0 }, body: null, bodyMissing: null, failure: null,
    serverDelay: { ms: null, method: "not-measurable", rttMs: null },
  };
}

describe("server delay estimate", () => {
  it("takes one RTT from the TCP handshake, stopping where TLS starts", () => {
    assert.equal(handshakeRtt(timing({ connectStart: 10, sslStart: 30, sslEnd: 70, connectEnd: 70 })), 20);
    assert.equal(handshakeRtt(timing({ connectStart: 10, connectEnd: 25 })), 15); // cleartext
    assert.equal(handshakeRtt(timing({})), null); // reused connection
  });

  it("measures time to first byte from the end of sending to the first header byte", () => {
    assert.equal(timeToFirstByte(timing({ sendEnd: 80, receiveHeadersStart: 230, receiveHeadersEnd: 231 })), 150);
    assert.equal(timeToFirstByte(timing({ sendEnd: 80, receiveHeadersEnd: 200 })), 120); // older Chrome: no Start
    assert.equal(timeToFirstByte(timing({ sendEnd: -1 })), null);
  });

  it("subtracts the handshake RTT, and lends it to later requests on the same connection", () => {
    const first = entry("https://a.test/1", "7", timing({ connectStart: 0, sslStart: 40, connectEnd: 120, sendEnd: 121, receiveHeadersStart: 221 }));
    const reused = entry("https://a.test/2", "7", timing({ sendEnd: 5, receiveHeadersStart: 300 }));
    const otherConn = entry("https://a.test/3", "9", timing({ sendEnd: 0, receiveHeadersStart: 45 }));
    const lonely = entry("https://b.test/x", "11", timing({ sendEnd: 0, receiveHeadersStart: 100 }));
    const cached = entry("https://a.test/1", "0", timing({ sendEnd: 0, receiveHeadersStart: 1 }), "disk");
    estimateServerDelays([first, reused, otherConn, lonely, cached]);
    assert.deepEqual(first.serverDelay, { ms: 60, method: "ttfb-minus-handshake-rtt", rttMs: 40 });
    assert.deepEqual(reused.serverDelay, { ms: 255, method: "ttfb-minus-connection-rtt", rttMs: 40 });
    assert.deepEqual(otherConn.serverDelay, { ms: 5, method: "ttfb-minus-origin-rtt", rttMs: 40 });
    assert.deepEqual(lonely.serverDelay, { ms: 60, method: "ttfb-minus-origin-rtt", rttMs: 40 }); // page-wide minimum
    assert.equal(cached.serverDelay.ms, null);
    assert.equal(cached.serverDelay.method, "not-measurable");
  });

  it("never reports a negative delay", () => {
    const e = entry("https://a.test/", "1", timing({ connectStart: 0, connectEnd: 50, sendEnd: 51, receiveHeadersStart: 80 }));
    estimateServerDelays([e]);
    assert.equal(e.serverDelay.ms, 0);
  });
});
