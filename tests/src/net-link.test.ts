import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { pair, SERVER, TCP_PAYLOAD_SHARE, withTopology, writeTemp } from "./net-topology.js";
import { unlessCpuStolen } from "./stolen-cpu.js";

/**
 * The emulated link measured from outside, with real kernel TCP and UDP in the two namespaces.
 * Tolerances are stated where they are used; the machine is a loaded 2-core box, so they allow
 * for scheduling noise but not for a wrong model (a wrong delay, rate or loss rate fails them).
 * The timing tests measure again when the hypervisor stole the CPU from the emulator meanwhile.
 */
describe("emulated link: delay, rate, trace delivery and loss", () => {
  it("round-trip time is twice the one-way delay, on each path of a two-path topology", async (t) => {
    await unlessCpuStolen(t, () => withTopology("tdelay", ["--paths", "2", "--delay-ms", "20", "--no-mptcp"], async () => {
      // Path 1 is reached at its own server-side address (10.10.1.1), path 0 at the server address.
      for (const target of [SERVER, "10.10.1.1"]) {
        const { client } = await pair("tdelay", ["echo", "--listen", `${target}:7001`, "--seconds", "6"], ["rtt", "--connect", `${target}:7001`, "--count", "40", "--interval-ms", "20"]);
        assert.equal(client.received, 40, `all probes to ${target} answered`);
        // The model adds exactly 40 ms; the emulator's own wake-up and TUN hops add well under
        // 1 ms each way on an idle machine, so the minimum must sit in [40, 41] ms and the median
        // within 3 ms (room for the CI box's scheduling noise, far below a 20 ms error).
        assert.ok(client.rttMs.min >= 40 && client.rttMs.min < 41, `min RTT ${client.rttMs.min} ms to ${target}`);
        assert.ok(client.rttMs.p50 < 43, `median RTT ${client.rttMs.p50} ms to ${target}`);
      }
    }));
  });

  for (const rate of [5, 40]) {
    it(`a saturating TCP download gets the configured ${rate} Mbit/s`, async (t) => {
      await unlessCpuStolen(t, () => withTopology(`trate${rate}`, ["--delay-ms", "10", "--rate-mbit", String(rate), "--queue", "droptail:bdp=1"], async () => {
        const { client } = await pair(`trate${rate}`, ["tcp", "--listen", `${SERVER}:7002`, "--send", "5"], ["tcp", "--connect", `${SERVER}:7002`, "--recv"]);
        // Skip the first second (slow start) and the last window; TCP's share of each 1,504-byte
        // opportunity is 1,448 payload bytes. Within 92-101%: a 1-BDP drop-tail queue keeps the
        // link busy through loss recovery (Appenzeller et al.), so the remaining gap is TCP's
        // sawtooth, while a rate error of 10% fails.
        const windows: number[] = client.windows.slice(10, -1);
        const mbps = (deliveryRate(windows) * 8) / (client.windowMs * 1000);
        const expected = rate * TCP_PAYLOAD_SHARE;
        assert.ok(mbps > 0.92 * expected && mbps < 1.01 * expected, `goodput ${mbps.toFixed(2)} Mbit/s, expected ${expected.toFixed(2)}`);
      }));
    });
  }

  it("delivers what a Mahimahi trace allows in each 100 ms window", async (t) => {
    // Period 1 s: 500 ms at 2 opportunities per ms (24 Mbit/s), 500 ms at 6 per ms (72 Mbit/s).
    const lines: number[] = [];
    for (let ms = 1; ms <= 1000; ms++) for (let k = 0; k < (ms <= 500 ? 2 : 6); k++) lines.push(ms);
    const trace = writeTemp("trace", "steps.down", lines.join("\n") + "\n");
    await unlessCpuStolen(t, () => withTopology("ttrace", ["--delay-ms", "5", "--downlink-trace", trace, "--uplink-trace", trace, "--queue", "droptail:packets=60"], async () => {
      // 100 Mbit/s of 1,500-byte IP packets overloads both halves, so every opportunity is used.
      const { server } = await pair("ttrace", ["udp-recv", "--listen", `${SERVER}:7003`, "--idle-timeout", "2"], ["udp-send", "--connect", `${SERVER}:7003`, "--rate-mbit", "100", "--size", "1472", "--seconds", "4"]);
      const windows: number[] = server.windows.slice(1, -2);
      const allowed = (startMs: number) => {
        let n = 0;
        for (let t = startMs; t < startMs + 100; t++) n += (t % 1000) < 500 ? 2 : 6;
        return n * 1500;
      };
      // The receiver's windows start at its first packet, not at the trace's start: find the
      // phase that fits best, then hold every window to it.
      let best = { phase: 0, err: Infinity };
      for (let phase = 0; phase < 1000; phase += 5) {
        const err = windows.reduce((s, w, i) => s + Math.abs(w - allowed(phase + (i + 1) * 100)), 0);
        if (err < best.err) best = { phase, err };
      }
      windows.forEach((w, i) => {
        const want = allowed(best.phase + (i + 1) * 100);
        // A window may gain or lose up to 5 ms of opportunities at its edges (phase steps of 5 ms
        // and the receiver's timestamps), i.e. 30 packets at the fast rate.
        assert.ok(Math.abs(w - want) <= 30 * 1500, `window ${i + 1}: ${w} bytes, the trace allows ${want}`);
      });
    }));
  });

  it("loses packets at the configured independent rate", async () => {
    await withTopology("tloss", ["--loss", "0.05"], async () => {
      const n = 20000;
      const { server } = await pair("tloss", ["udp-recv", "--listen", `${SERVER}:7004`], ["udp-send", "--connect", `${SERVER}:7004`, "--rate-mbit", "8", "--size", "200", "--count", String(n)]);
      // Binomial: sd = sqrt(p(1-p)/n) = 0.00154 at n = 20,000; 4.5 sd (0.0069) makes a false
      // failure a one-in-150,000 event, while 4% or 6% loss fails.
      const tolerance = 4.5 * Math.sqrt((0.05 * 0.95) / n);
      assert.ok(Math.abs(server.lossRate - 0.05) <= tolerance, `loss rate ${server.lossRate}, expected 0.05 ± ${tolerance.toFixed(4)}`);
      assert.ok(server.meanLossBurst < 1.2, `independent losses come alone (mean burst ${server.meanLossBurst})`);
    });
  });

  it("loses packets in Gilbert-Elliott bursts", async () => {
    const topo = writeTemp("ge", "ge.json", JSON.stringify({
      schemaVersion: 1, seed: 11,
      paths: [{ uplink: { loss: { model: "gilbert-elliott", p: 0.01, r: 0.25 } }, downlink: {} }],
    }));
    await withTopology("tge", [topo], async () => {
      const n = 30000;
      const { server } = await pair("tge", ["udp-recv", "--listen", `${SERVER}:7005`], ["udp-send", "--connect", `${SERVER}:7005`, "--rate-mbit", "8", "--size", "200", "--count", String(n)]);
      // Stationary loss p/(p+r) = 0.0385 and bursts of mean 1/r = 4 packets. About
      // n*0.0385/4 = 290 bursts, so the loss rate has a relative sd near 1/sqrt(290)*sqrt(2)
      // (burst count and length both vary) = 8%: allow 30% (3.5 sd); the mean burst length
      // (geometric, sd 3.5 per burst, 0.2 over 290 bursts) within [3, 5].
      const expected = 0.01 / 0.26;
      assert.ok(Math.abs(server.lossRate - expected) <= 0.3 * expected, `loss rate ${server.lossRate}, expected ${expected.toFixed(4)}`);
      assert.ok(server.meanLossBurst >= 3 && server.meanLossBurst <= 5, `mean loss burst ${server.meanLossBurst}, expected 4`);
    });
  });
});

/**
 * Bytes a window at which the bytes read so far grew: the least-squares slope of the running
 * total at each window's end. The receiver times its reads, so a stall in it (a busy or
 * hypervisor-starved machine) moves bytes from one window to the next; summing the windows
 * between two ends counts all of such a shift at an end (40 ms at 5 Mbit/s read 1% fast), where
 * the slope through every window's total moves by about a sixth of that.
 */
function deliveryRate(windows: number[]): number {
  let total = 0;
  const totals = windows.map((w) => (total += w));
  const n = totals.length;
  const meanX = (n - 1) / 2;
  const meanY = totals.reduce((a, b) => a + b, 0) / n;
  let sxy = 0;
  let sxx = 0;
  totals.forEach((y, x) => {
    sxy += (x - meanX) * (y - meanY);
    sxx += (x - meanX) ** 2;
  });
  return sxy / sxx;
}
