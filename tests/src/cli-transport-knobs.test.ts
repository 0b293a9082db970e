/**
 * --congestion and --tail-loss-probes on the command line: the values are checked by pagepath-server
 * (the kernel's list of controllers, tquic's), and a wrong one is a usage error before anything runs
 * (no root, no graph needed: "missing.json" is never read).
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { runCli } from "./cli-run.js";

const REPLAY = ["replay", "missing.json", "--client", "emulated"];

async function refused(args: string[]): Promise<string> {
  const r = await runCli(args, 30_000);
  assert.equal(r.code, 2, `${args.join(" ")}: exit ${r.code}\n${r.stderr}`);
  return r.stderr;
}

describe("choosing the congestion controller and tail loss probes", () => {
  it("refuses a controller the kernel lacks over TCP, naming the kernel's list, in replay and in accuracy", async () => {
    const stderr = await refused([...REPLAY, "--protocol", "h2", "--congestion", "copa"]);
    assert.match(stderr, /--congestion: this kernel has no "copa"; \/proc\/sys\/net\/ipv4\/tcp_available_congestion_control lists .*cubic/);
    const accuracy = await refused(["accuracy", "--protocol", "h2", "--transport", "tcp", "--congestion", "no-such-cc"]);
    assert.match(accuracy, /--congestion: this kernel has no "no-such-cc"/);
  });

  it("refuses a controller tquic lacks over QUIC, naming tquic's", async () => {
    const stderr = await refused([...REPLAY, "--protocol", "h3", "--transport", "mpquic", "--congestion", "reno"]);
    assert.match(stderr, /--congestion: tquic has no "reno"; it has cubic, bbr, bbr3, copa/);
  });

  it("refuses tail loss probes off over QUIC and multipath QUIC, saying why", async () => {
    for (const transport of ["quic", "mpquic"]) {
      const stderr = await refused([...REPLAY, "--protocol", "h3", "--transport", transport, "--tail-loss-probes", "off"]);
      assert.match(stderr, /--tail-loss-probes off: QUIC's probe timeout is its only timer-based loss recovery/);
    }
    assert.match(await refused([...REPLAY, "--tail-loss-probes", "maybe"]), /--tail-loss-probes "maybe": expected on or off/);
  });

  it("passes replay serve's knobs to the server, which refuses a bad one before serving", async () => {
    const stderr = await refused(["replay", "serve", "missing", "--protocol", "h3", "--transport", "quic", "--tail-loss-probes", "off"]);
    assert.match(stderr, /--tail-loss-probes off: QUIC's probe timeout/);
    assert.match(await refused(["replay", "serve", "missing", "--congestion", "no-such-cc"]), /--congestion: this kernel has no "no-such-cc"/);
  });

  it("refuses reproduce's controller when the kernel lacks it (its experiments run TCP and MPTCP)", async () => {
    assert.match(await refused(["reproduce", "--congestion", "copa"]), /pagepath reproduce: --congestion: this kernel has no "copa"/);
    assert.match(await refused(["reproduce", "--tail-loss-probes", "sometimes"]), /--tail-loss-probes "sometimes": expected on or off/);
    assert.match(await refused(["reproduce", "--links", "noisy"]), /--links "noisy": expected plain or thesis/);
  });
});
