/**
 * --scheduler and --scheduler-opt on the command line: the names come from pagepath-server (the Rust
 * registry), and every wrong choice is a usage error before anything runs (no root, no graph needed).
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

describe("choosing a multipath scheduler", () => {
  it("refuses an unknown name, listing pagepath's and tquic's names", async () => {
    const stderr = await refused([...REPLAY, "--protocol", "h3", "--transport", "mpquic", "--scheduler", "fastest"]);
    assert.match(stderr, /unknown scheduler "fastest"/);
    for (const name of ["lowest-rtt", "ecf", "blest", "srpt-ecf", "stream-scheduler", "minrtt", "roundrobin"]) assert.ok(stderr.includes(name), `${name} listed: ${stderr}`);
  });

  it("refuses a multipath scheduler over single-path QUIC and TCP, listing the names", async () => {
    for (const [protocol, transport] of [["h3", "quic"], ["h2", "tcp"]]) {
      const stderr = await refused([...REPLAY, "--protocol", protocol!, "--transport", transport!, "--scheduler", "ecf"]);
      assert.match(stderr, new RegExp(`--transport ${transport} has one path`));
      assert.ok(stderr.includes("lowest-rtt") && stderr.includes("round-robin"), stderr);
    }
  });

  it("names a bad --scheduler-opt and what the scheduler takes, in replay and in accuracy", async () => {
    const stderr = await refused([...REPLAY, "--protocol", "h3", "--transport", "mpquic", "--scheduler", "ecf", "--scheduler-opt", "gamma=2"]);
    assert.match(stderr, /--scheduler-opt: scheduler ecf has no option gamma; it takes beta, form/);
    const accuracy = await refused(["accuracy", "--protocol", "h3", "--transport", "mpquic", "--scheduler", "blest", "--scheduler-opt", "lambda=x"]);
    assert.match(accuracy, /--scheduler-opt: scheduler option lambda=x: expected a number/);
  });

  it("offers MPTCP only what the kernel lists", async () => {
    const stderr = await refused([...REPLAY, "--protocol", "h2", "--transport", "mptcp", "--scheduler", "ecf"]);
    assert.match(stderr, /this kernel's MPTCP has no such scheduler; net\.mptcp\.available_schedulers lists default/);
    // reproduce's experiments run MPTCP: its --scheduler is the kernel's.
    const reproduce = await refused(["reproduce", "--scheduler", "ecf"]);
    assert.match(reproduce, /pagepath reproduce: --scheduler ecf: this kernel's MPTCP has no such scheduler/);
  });

  it("passes replay serve's scheduler to the server, which refuses one over single-path QUIC", async () => {
    const stderr = await refused(["replay", "serve", "missing", "--protocol", "h3", "--transport", "quic", "--scheduler", "ecf"]);
    assert.match(stderr, /--transport quic has no multipath QUIC scheduler to choose; the schedulers \(lowest-rtt, /);
  });
});
