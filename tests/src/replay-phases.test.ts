import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { Client, PhaseSpan, RequestPhases, RequestRecord, RunConfiguration, RunResult } from "@pagepath/results";
import { readTopology, runReplay } from "@pagepath/runner";
import { tempDir } from "./fixture-profile.js";
import { recordFixtureGraph } from "./fixture-graph.js";
import { withTopology } from "./net-topology.js";

/** Each direction's delay: every request waits at least one round trip, 2 x this, for its first byte. */
const ONE_WAY_MS = 15;
const NAMES = ["queued", "dns", "connect", "ssl", "send", "wait", "download"] as const;
/** Run results round to µs; a clamp and a rounding may each take one. */
const ROUNDING_MS = 0.01;
/** The clients stamp on other threads than the packets: an RTT can read a little shorter. */
const SLACK_MS = 2;

const spans = (p: RequestPhases): [string, PhaseSpan][] => NAMES.flatMap((n) => (p[n] ? [[n, p[n]!] as [string, PhaseSpan]] : []));
const length = (s: PhaseSpan | null) => (s ? s.end - s.start : 0);

/** Each phase non-negative and after the one before it, the last ending at the request's end. */
function assertLaidOut(q: RequestRecord): void {
  const where = `${q.url} (${q.startMs}..${q.endMs} ms): ${JSON.stringify(q.phases)}`;
  const all = spans(q.phases!);
  assert.ok(all.length > 0, where);
  let previous = 0;
  for (const [name, s] of all) {
    assert.ok(s.start >= 0 && s.end >= s.start, `${where}: ${name} is negative`);
    assert.ok(s.start >= previous - ROUNDING_MS, `${where}: ${name} starts before the phase before it ended`);
    previous = s.end;
  }
  assert.ok(Math.abs(all.at(-1)![1].end - q.endMs!) <= ROUNDING_MS, `${where}: the last phase does not end at endMs`);
  assert.ok(q.phases!.wait && q.phases!.download, `${where}: no wait or download`);
  // From the request's first byte out, not from its send phase's end: Chromium can stamp sendEnd
  // milliseconds after the request left (5.5 ms of a 31 ms round trip seen once), so its wait alone
  // can be shorter than the round trip.
  const out = (q.phases!.send ?? q.phases!.wait)!.start;
  assert.ok(q.phases!.wait.end - out >= 2 * ONE_WAY_MS - SLACK_MS, `${where}: had its first byte less than a round trip after sending`);
}

/**
 * Real replays of the multi-origin fixture (HTTPS over HTTP/2 and HTTP/3, cleartext HTTP/1.1, five
 * hosts) through a 20 Mbit/s link with a 30 ms round trip: the Chromium client reads its phases from
 * CDP's ResourceTiming, the emulated browser from its own transports' stamps. Both must lay them end
 * to end, and a request that opened a connection must show the handshake's round trip.
 */
describe("requests[].phases of replays by both clients", () => {
  const work = tempDir("replay-phases");
  const graphFile = join(work, "graph.json");
  before(async () => {
    await recordFixtureGraph(work);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  async function replay(net: string, client: Client, over: Partial<RunConfiguration>): Promise<RunResult> {
    const label = `${client}-${over.protocol}`;
    const run = await runReplay({
      graphFile,
      client,
      configuration: {
        protocol: "h2",
        transport: "tcp",
        serverModel: "out-of-order",
        priority: "browser",
        chunkSizeBytes: 16384,
        connectionsPerOrigin: client === "chromium" ? null : 1,
        emulation: client === "chromium" ? null : { preloader: true, cpuFactor: 1, waitFor: "load" },
        ...over,
      },
      topology: readTopology(net),
      seed: 1,
      timeoutMs: 60_000,
      serverOut: join(work, `server-${label}`),
      resultFile: join(work, `run-${label}.json`),
    });
    assert.equal(run.status, "ok", `${label}: ${run.error}`);
    return run;
  }

  function checkRun(run: RunResult, tls: (q: RequestRecord) => boolean): void {
    const answered = (run.requests ?? []).filter((q) => q.status !== null && q.endMs !== null);
    assert.ok(answered.length >= 5, `${run.client}: ${answered.length} answered requests`);
    for (const q of answered) {
      assert.ok(q.phases, `${run.client}: ${q.url} has no phases`);
      assertLaidOut(q);
    }
    // The request a connection was opened for shows the handshake: at least a round trip. The
    // emulated browser opens one per origin for the request that needs it; Chromium may bind a
    // connection it opened to another request than the one it was opened for (late binding), and
    // that one then reports no connect phase, so only some of its requests need show one.
    const openers = answered.filter((q) => q.phases!.connect !== null || q.phases!.ssl !== null);
    const origins = new Set(answered.map((q) => new URL(q.url).origin)).size;
    assert.ok(openers.length >= (run.client === "chromium" ? 1 : origins), `${run.client}: only ${openers.length} requests show a handshake, of ${origins} origins`);
    for (const q of openers) {
      const handshake = length(q.phases!.connect) + length(q.phases!.ssl);
      assert.ok(handshake >= 2 * ONE_WAY_MS - SLACK_MS, `${run.client}: ${q.url} connected in ${handshake} ms`);
      if (tls(q)) assert.ok(q.phases!.ssl, `${run.client}: ${q.url} opened a TLS connection without an ssl phase`);
    }
    assert.ok(answered.every((q) => q.phases!.dns === null || run.client === "chromium"), "the emulated browser looks up no names");
    const text = (q: RequestRecord) => `${q.url}: ${spans(q.phases!).map(([n, s]) => `${n} ${(s.end - s.start).toFixed(1)}`).join(", ")}`;
    console.log(`${run.client} ${run.configuration.protocol}: ${answered.length} requests, ${openers.length} opened a connection; ${text(openers[0]!)}; ${text(answered.at(-1)!)}`);
  }

  it("the emulated browser over HTTP/2 and HTTP/3, and Chromium over HTTP/2, each phase in order and ending at endMs", async () => {
    const net = "rp-phases";
    await withTopology(net, ["--paths", "1", "--rate-mbit", "20", "--delay-ms", String(ONE_WAY_MS)], async () => {
      const https = (q: RequestRecord) => q.url.startsWith("https:");
      checkRun(await replay(net, "emulated", { protocol: "h2" }), https);
      // QUIC's handshake is TLS's: Chromium stamps it as ssl, and so does the emulated browser.
      const h3 = await replay(net, "emulated", { protocol: "h3", transport: "quic" });
      checkRun(h3, https);
      for (const q of (h3.requests ?? []).filter((r) => https(r) && r.phases?.ssl)) assert.equal(length(q.phases!.connect), 0, `${q.url}: QUIC connect outside its TLS handshake`);
      checkRun(await replay(net, "chromium", { protocol: "h2" }), https);
    });
  });
});
