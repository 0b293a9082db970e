import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { readRecording } from "@pagepath/profiler";
import { chromiumInNamespace } from "@pagepath/runner";
import { tempDir } from "./fixture-profile.js";
import { NET, netStats, withTopology } from "./net-topology.js";
import { FETCH, readJsonLines, recordReplay, servedResponses, startReplay, synthetic } from "./replay-harness.js";

const run = promisify(execFile);
/** Two 4 Mbit/s paths: slow enough that a page's bytes back up and the second path is used. */
const TWO_PATHS = ["--paths", "2", "--delay-ms", "10", "--rate-mbit", "4"];


/** Chromium in the client namespace with its TCP sockets turned into MPTCP ones (mptcpize). */
const mptcpChromium = (net: string) => chromiumInNamespace(tempDir("chromium-mptcp"), net, true);

const delivered = (net: string): number[] => netStats(net).paths.map((p: any) => p.downlink.deliveredBytes);

describe("multipath replays: bytes on both paths", () => {
  it("HTTP/2 over MPTCP: Chromium (mptcpize) loads a two-origin page byte for byte over two subflows", async () => {
    const net = "rp-mptcp";
    // Big enough (1.2 MB) for the kernel's scheduler to fill the second subflow too.
    const html = '<!doctype html><title>mptcp</title><script src="https://static.mp.test/big.js"></script><script src="/app.js"></script>';
    const page = synthetic("https://www.mp.test", [
      { path: "/", mimeType: "text/html", bytes: 0, body: Buffer.from(html), delayMs: 2, resourceType: "Document" },
      { path: "https://static.mp.test/big.js", mimeType: "application/javascript", bytes: 0, body: Buffer.from(`/*${"x".repeat(1_200_000)}*/`), delayMs: 5, resourceType: "Script" },
      { path: "/app.js", mimeType: "application/javascript", bytes: 0, body: Buffer.from("document.title = 'done';"), delayMs: 3, resourceType: "Script" },
    ]);
    await withTopology(net, TWO_PATHS, async () => {
      const replay = await startReplay(page, ["--protocol", "h2", "--transport", "mptcp"], net);
      let replayed: string;
      try {
        replayed = await recordReplay("https://www.mp.test/", replay, mptcpChromium(net));
      } finally {
        assert.equal(await replay.stop(), 0);
      }
      const original = servedResponses(JSON.parse(readFileSync(join(page, "archive.json"), "utf8")));
      const again = servedResponses(readRecording(replayed).archive);
      for (const e of original) {
        const g = again.find((x) => x.url === e.url);
        assert.ok(g, `${e.url} not fetched from the replay`);
        assert.equal(g.body!.sha256, e.body!.sha256, `${e.url}: body differs`);
        assert.equal(g.response!.protocol, "h2");
      }
      const connections = readJsonLines(join(replay.out, "connections.jsonl"));
      assert.ok(connections.every((c) => c.transport === "mptcp"));
      const multi = connections.filter((c) => c.paths.filter((p: any) => p.bytesSent > 0).length >= 2);
      assert.ok(multi.length >= 1, `no connection sent on two subflows: ${JSON.stringify(connections.map((c) => c.paths))}`);
      const bytes = delivered(net);
      for (const [i, b] of bytes.entries()) assert.ok(b > 200_000, `path ${i} delivered ${b} bytes (${bytes})`);
    });
  });

  for (const scheduler of ["minrtt", "roundrobin"]) {
    it(`HTTP/3 over multipath QUIC (${scheduler}): every response byte for byte, bytes on both paths`, async () => {
      const net = `rp-mpq-${scheduler.slice(0, 3)}`;
      // 1.2 MB from one origin: seconds at 2 × 4 Mbit/s, so the second path is validated and used.
      const files = Array.from({ length: 6 }, (_, i) => ({ path: `/part${i}.bin`, mimeType: "application/octet-stream", bytes: 200_000 + i, delayMs: 1 }));
      const page = synthetic("https://www.mpq.test", files);
      await withTopology(net, TWO_PATHS, async () => {
        const replay = await startReplay(page, ["--protocol", "h3", "--transport", "mpquic", "--scheduler", scheduler], net);
        const origin = replay.nameMap.origins[0];
        let report: any;
        try {
          const { stdout } = await run(NET, [
            "exec", net, "client", "--", FETCH, "--connect", `${origin.address}:443`, "--host", "www.mpq.test",
            "--local", "10.10.0.2", "--local", "10.10.1.2", "--multipath", "--scheduler", scheduler, ...files.map((f) => f.path),
          ]);
          report = JSON.parse(stdout.trim().split("\n").at(-1)!);
        } finally {
          assert.equal(await replay.stop(), 0);
        }
        const original: any[] = JSON.parse(readFileSync(join(page, "archive.json"), "utf8"));
        assert.equal(report.responses.length, files.length);
        for (const r of report.responses) {
          const e = original.find((x) => x.url === `https://www.mpq.test${r.target}`);
          assert.equal(r.sha256, e.body.sha256, `${r.target}: body differs`);
        }
        assert.equal(report.transport, "mpquic");
        const usedPaths = report.paths.filter((p: any) => p.bytesReceived > 0);
        assert.ok(usedPaths.length >= 2, `client paths: ${JSON.stringify(report.paths)}`);
        const conn = readJsonLines(join(replay.out, "connections.jsonl")).find((c) => c.transport === "mpquic");
        assert.ok(conn, "the server logged the multipath connection");
        assert.ok(conn.paths.filter((p: any) => p.bytesSent > 0).length >= 2, `server paths: ${JSON.stringify(conn.paths)}`);
        const bytes = delivered(net);
        for (const [i, b] of bytes.entries()) assert.ok(b > 50_000, `path ${i} delivered ${b} bytes (${bytes})`);
        assert.ok(readdirSync(join(replay.out, "qlog")).some((f) => f.endsWith(".sqlog")), "a qlog file for the connection");
      });
    });
  }
});
