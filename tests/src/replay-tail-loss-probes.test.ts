import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { REPLAY_SERVER } from "@pagepath/runner";
import { tempDir } from "./fixture-profile.js";
import { NET, withTopology } from "./net-topology.js";
import { startReplay, synthetic } from "./replay-harness.js";

const run = promisify(execFile);
const page = () => synthetic("https://www.tlp.test", [{ path: "/a.bin", mimeType: "application/octet-stream", bytes: 1000, delayMs: 0 }]);

/** net.ipv4.tcp_early_retrans in the topology's server namespace. */
async function earlyRetrans(net: string): Promise<string> {
  const { stdout } = await run(NET, ["exec", net, "server", "--", "sysctl", "-n", "net.ipv4.tcp_early_retrans"]);
  return stdout.trim();
}

describe("the replay server's --tail-loss-probes", () => {
  it("turns the server namespace's tail loss probes off, and on again for the next server", async () => {
    const net = "rp-tlp";
    await withTopology(net, ["--delay-ms", "5"], async () => {
      const off = await startReplay(page(), ["--protocol", "h2", "--tail-loss-probes", "off"], net);
      assert.equal(await earlyRetrans(net), "0");
      assert.equal(await off.stop(), 0);
      const on = await startReplay(page(), ["--protocol", "h2"], net);
      assert.equal(await earlyRetrans(net), "3", "a later server without the option gets the kernel's default back");
      assert.equal(await on.stop(), 0);
    });
  });

  it("refuses to turn them off for the host, or for QUIC", async () => {
    const refused = async (args: string[]) => {
      const out = join(tempDir("tlp-bad"), "out");
      const e: any = await run(REPLAY_SERVER, ["serve", page(), "--out", out, "--first-address", "127.0.7.31", ...args]).then(() => assert.fail(`started with ${args.join(" ")}`), (e) => e);
      assert.notEqual(e.code, 0);
      return e.stderr as string;
    };
    assert.match(await refused(["--tail-loss-probes", "off"]), /--tail-loss-probes off: the server is in the host's network namespace/);
    assert.match(await refused(["--protocol", "h3", "--tail-loss-probes", "off"]), /QUIC's probe timeout is its only timer-based loss recovery/);
    assert.match(await refused(["--tail-loss-probes", "maybe"]), /--tail-loss-probes: "maybe" is neither on nor off/);
  });
});
