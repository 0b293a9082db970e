import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { NET, withTopology, writeTemp } from "./net-topology.js";
import { FETCH, readJsonLines, startReplay, synthetic } from "./replay-harness.js";

const run = promisify(execFile);

/** A 20 ms and an 80 ms RTT path of 10 Mbit/s each. */
const ASYMMETRIC = JSON.stringify({
  schemaVersion: 1,
  seed: 1,
  paths: [
    { name: "fast", uplink: { delayMs: 10, rateMbit: 10 }, downlink: { delayMs: 10, rateMbit: 10 } },
    { name: "slow", uplink: { delayMs: 40, rateMbit: 10 }, downlink: { delayMs: 40, rateMbit: 10 } },
  ],
});

/**
 * Twenty 15 KB responses released 50 ms apart: the connection is rarely window-limited, so where
 * each packet goes is the scheduler's choice rather than whichever path has room.
 */
const TRICKLE = Array.from({ length: 20 }, (_, i) => ({ path: `/small${i}.bin`, mimeType: "application/octet-stream", bytes: 15_000 + i, delayMs: 50 * i }));

/**
 * Serves `files` with pagepath's scheduler `name` in the asymmetric topology and fetches them all
 * at once over both paths with pagepath-fetch; its report, checked body for body, and the server's
 * log folder.
 */
async function fetchOverTwoPaths(name: string, label: string, files: typeof TRICKLE): Promise<{ report: any; out: string }> {
  const page = synthetic("https://www.mpq.test", files);
  const net = `rp-${label}-${name.slice(0, 5)}`;
  return withTopology(net, [writeTemp("asym", "topology.json", ASYMMETRIC)], async () => {
    const replay = await startReplay(page, ["--protocol", "h3", "--transport", "mpquic", "--scheduler", name, "--no-qlog"], net);
    let report: any;
    try {
      const origin = replay.nameMap.origins[0];
      const { stdout } = await run(NET, [
        "exec", net, "client", "--", FETCH, "--connect", `${origin.address}:443`, "--host", "www.mpq.test",
        "--local", "10.10.0.2", "--local", "10.10.1.2", "--multipath", ...files.map((f) => f.path),
      ]);
      report = JSON.parse(stdout.trim().split("\n").at(-1)!);
    } finally {
      assert.equal(await replay.stop(), 0);
    }
    const original: any[] = JSON.parse(readFileSync(join(page, "archive.json"), "utf8"));
    assert.equal(report.responses.length, files.length);
    for (const r of report.responses) assert.equal(r.sha256, original.find((e) => e.url.endsWith(r.target)).body.sha256, `${r.target}: body differs`);
    return { report, out: replay.out };
  });
}

/** The server's bytes per path (fast, slow) for one fetch with pagepath's scheduler `name`. */
async function bytesPerPath(name: string): Promise<[number, number]> {
  const { out } = await fetchOverTwoPaths(name, "sch", TRICKLE);
  const conn = readJsonLines(join(out, "connections.jsonl")).find((c) => c.transport === "mpquic");
  assert.ok(conn, "the server logged the multipath connection");
  const sent = (client: string) => conn.paths.find((p: any) => p.remote.startsWith(`${client}:`))?.bytesSent ?? 0;
  return [sent("10.10.0.2"), sent("10.10.1.2")];
}

describe("pagepath's schedulers drive multipath QUIC through the tquic hook", () => {
  it("lowest-rtt keeps the responses on the fast path, round-robin spreads them, redundant copies them", async () => {
    const [lowFast, lowSlow] = await bytesPerPath("lowest-rtt");
    const [rrFast, rrSlow] = await bytesPerPath("round-robin");
    const [redFast, redSlow] = await bytesPerPath("redundant");
    const bytes = JSON.stringify({ lowFast, lowSlow, rrFast, rrSlow, redFast, redSlow });
    assert.ok(lowSlow < 0.1 * (lowFast + lowSlow), `lowest-rtt put more than 10% on the slow path: ${bytes}`);
    assert.ok(rrSlow > 0.25 * (rrFast + rrSlow), `round-robin put under 25% on the slow path: ${bytes}`);
    // every response's bytes (300 KB) on the fast path, and most of them again on the slow one
    assert.ok(redFast > 300_000 && redSlow > 0.6 * redFast, `redundant did not copy: ${bytes}`);
  });
});

/** A 1.5 MB response ready at once and a 20 KB one ready 60 ms later, on one connection. */
const BIG_THEN_SMALL = [
  { path: "/big.bin", mimeType: "application/octet-stream", bytes: 1_500_000, delayMs: 0 },
  { path: "/small.bin", mimeType: "application/octet-stream", bytes: 20_000, delayMs: 60 },
];

/** When each response completed, in ms after its request, with pagepath's scheduler `name`. */
async function smallAfterBig(name: string): Promise<{ smallMs: number; bigMs: number }> {
  const { report } = await fetchOverTwoPaths(name, "ord", BIG_THEN_SMALL);
  const took = (target: string) => {
    const r = report.responses.find((x: any) => x.target === target);
    assert.equal(r.status, 200, `${target}: ${JSON.stringify(r)}`);
    return (r.endUs - r.startUs) / 1000;
  };
  return { smallMs: took("/small.bin"), bigMs: took("/big.bin") };
}

describe("a stream-ordering scheduler sees every ready response on the real stack", () => {
  it("SRPT-ECF sends the small response before the rest of the big one; lowest-RTT leaves the server's order", async () => {
    const srpt = await smallAfterBig("srpt-ecf");
    const lowest = await smallAfterBig("lowest-rtt");
    const figures = JSON.stringify({ srpt, lowest });
    // 1.5 MB over 2 x 10 Mbit/s takes about 600 ms: behind it, the small one ends near the big one
    assert.ok(lowest.smallMs > 0.8 * lowest.bigMs, `lowest-rtt did not keep the server's first-come order: ${figures}`);
    assert.ok(srpt.smallMs < 0.4 * srpt.bigMs, `srpt-ecf did not overtake with the short response: ${figures}`);
  });
});
