import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { netStats, pair, SERVER, withTopology } from "./net-topology.js";

/** One MPTCP connection over a two-path topology: a subflow per path, bytes on both. */
describe("emulated link: MPTCP over two paths", () => {
  const download = async (name: string) => {
    const result = await pair(name, ["tcp", "--mptcp", "--listen", `${SERVER}:7020`, "--send", "5"], ["tcp", "--mptcp", "--connect", `${SERVER}:7020`, "--recv"]);
    await new Promise((r) => setTimeout(r, 500));
    const bytes: number[] = netStats(name).paths.map((p: any) => p.downlink.deliveredBytes);
    return { ...result, bytes };
  };

  it("opens a subflow per path and carries the download on both", async () => {
    await withTopology("tmp2", ["--paths", "2", "--delay-ms", "10", "--rate-mbit", "10", "--queue", "droptail:bdp=1"], async () => {
      const { client, bytes } = await download("tmp2");
      assert.equal(client.mptcp, true);
      assert.equal(client.fallback, false, "the connection did not fall back to TCP");
      assert.equal(client.subflows, 2, "one subflow per path");
      // Each path is 10 Mbit/s for 5 s (6.25 MB): both must carry a large share, and together
      // more than one path could (1.3 x 10 Mbit/s).
      for (const [i, b] of bytes.entries()) assert.ok(b > 1_500_000, `path ${i} delivered ${b} bytes`);
      const mbps = (client.bytes * 8) / (client.seconds * 1e6);
      assert.ok(mbps > 13, `aggregate goodput ${mbps.toFixed(1)} Mbit/s`);
    });
  });

  it("keeps a backup path idle while the other path works", async () => {
    await withTopology("tmpbk", ["--paths", "2", "--delay-ms", "10", "--rate-mbit", "10", "--backup", "1"], async () => {
      const { client, bytes } = await download("tmpbk");
      assert.equal(client.subflows, 2, `the backup subflow is open (client ${JSON.stringify(client)})`);
      // Only handshakes and keepalives cross the backup path while the other makes progress. The
      // kernel does reinject onto the backup when the active subflow has made none for two RTOs
      // (mptcp_subflow_get_retrans), which a host that pauses the emulator for half a second can
      // cause; shared over both paths, the backup would carry about half.
      assert.ok(bytes[1]! < 0.1 * bytes[0]!, `backup path carried ${bytes[1]} bytes vs ${bytes[0]} (client ${JSON.stringify(client)})`);
    });
  });
});
