import assert from "node:assert/strict";
import { readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RunConfiguration, RunResult } from "@pagepath/results";
import { readTopology, runReplay } from "@pagepath/runner";
import { tempDir } from "./fixture-profile.js";
import { recordFixtureGraph } from "./fixture-graph.js";
import { withTopology } from "./net-topology.js";
import { readJsonLines } from "./replay-harness.js";

/** Each direction's delay on both paths of the topology. */
const ONE_WAY_MS = 10;
/** RFC 9000's default max_ack_delay: how long a QUIC receiver may hold an ACK back. */
const MAX_ACK_DELAY_MS = 25;

/**
 * A real replay of the multi-origin fixture by the emulated browser over two equal paths of
 * multipath QUIC, with pagepath's round-robin scheduler in the servers: every response's bytes are
 * counted per path by the tquic hook and land in the run result's requests[].paths.
 */
describe("requests[].paths of a two-path multipath QUIC replay", () => {
  const work = tempDir("replay-request-paths");
  const graphFile = join(work, "graph.json");
  before(async () => {
    await recordFixtureGraph(work);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  /** One replay through topology `net` with the configuration changed by `over`; its run, checked ok. */
  async function replay(net: string, label: string, over: Partial<RunConfiguration>): Promise<{ run: RunResult; serverOut: string }> {
    const serverOut = join(work, `server-${label}`);
    const run = await runReplay({
      graphFile,
      client: "emulated",
      configuration: {
        protocol: "h3",
        transport: "mpquic",
        serverModel: "out-of-order",
        priority: "browser",
        chunkSizeBytes: 16384,
        connectionsPerOrigin: 1,
        emulation: { preloader: true, cpuFactor: 1, waitFor: "load" },
        ...over,
      },
      topology: readTopology(net),
      seed: 1,
      timeoutMs: 60_000,
      serverOut,
      resultFile: join(work, `run-${label}.json`),
    });
    assert.equal(run.status, "ok", `${label}: ${run.error}`);
    return { run, serverOut };
  }

  const complete = (run: RunResult) => (run.requests ?? []).filter((q) => q.status === 200 && q.endMs !== null);

  it("round-robin: each response's bytes on the paths that carried them, at least its body, sent while it was fetched", async () => {
    const net = "rp-reqpaths";
    await withTopology(net, ["--paths", "2", "--rate-mbit", "20", "--delay-ms", String(ONE_WAY_MS)], async () => {
      const { run, serverOut } = await replay(net, "round-robin", { scheduler: { name: "round-robin", options: {} } });
      const requests = complete(run);
      assert.ok(requests.length >= 5, `${requests.length} complete requests`);
      const perPath = [0, 0];
      for (const q of requests) {
        const where = `${q.url}: ${JSON.stringify(q.paths)}`;
        assert.ok(q.paths, `${where}: no per-path bytes`);
        const sum = q.paths.reduce((s, p) => s + p.bytes, 0);
        assert.ok(sum >= q.bodyBytes!, `${where}: ${sum} bytes sent for a body of ${q.bodyBytes}`);
        for (const p of q.paths) {
          perPath[p.path]! += p.bytes;
          assert.ok(p.packets !== null && p.packets > 0, `${where}: packets`);
          // The server may re-send a response's last packets until the client's ACK reaches it: up to
          // QUIC's max_ack_delay after the client has it all, plus the ACK's trip back.
          assert.ok(p.firstMs >= q.startMs - ONE_WAY_MS && p.lastMs <= q.endMs! + ONE_WAY_MS + MAX_ACK_DELAY_MS, `${where}: sent outside ${q.startMs}..${q.endMs} ms`);
        }
        // Round-robin alternates packets: a response of several packets goes on both paths.
        if (q.bodyBytes! > 10_000) assert.deepEqual(q.paths.map((p) => p.path), [0, 1], `${where}: not on both paths`);
      }
      console.log(requests.map((q) => `${q.url} ${q.bodyBytes} B, ${q.startMs}..${q.endMs} ms: ${q.paths!.map((p) => `path ${p.path} ${p.bytes} B/${p.packets} pkts ${p.firstMs}..${p.lastMs}`).join(", ")}`).join("\n"));
      assert.ok(perPath[0]! > 0 && perPath[1]! > 0, `bytes per path ${perPath}`);
      // The server's log says the same, with its own path ids and addresses.
      const logged = readJsonLines(join(serverOut, "streams.jsonl"));
      const remotes = new Set(logged.flatMap((s) => (s.paths ?? []).map((p: any) => p.remote.split(":")[0])));
      assert.deepEqual([...remotes].sort(), ["10.10.0.2", "10.10.1.2"]);
      assert.ok(JSON.parse(readFileSync(join(serverOut, "origins.json"), "utf8")).clockStartUnixMs > 0);

      // TCP: one path, the body bytes written, packets unknown; tquic's own minrtt: not measured.
      const { run: tcp } = await replay(net, "h2-tcp", { protocol: "h2", transport: "tcp", scheduler: null });
      for (const q of complete(tcp)) {
        const p = q.paths?.[0];
        assert.ok(q.paths?.length === 1 && p, `${q.url} over TCP: ${JSON.stringify(q.paths)}`);
        assert.deepEqual([p.path, p.bytes, p.packets], [0, q.bodyBytes, null], `${q.url} over TCP`);
        assert.ok(p.firstMs >= q.startMs - ONE_WAY_MS && p.lastMs <= q.endMs! + ONE_WAY_MS, `${q.url} over TCP: ${JSON.stringify(p)} outside ${q.startMs}..${q.endMs} ms`);
      }
      const { run: minrtt } = await replay(net, "minrtt", { scheduler: { name: "minrtt", options: {} } });
      assert.ok(complete(minrtt).every((q) => q.paths === null), "tquic's own scheduler says nothing per request");
    });
  });
});
