import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { join } from "node:path";
import { describe, it } from "node:test";
import { promisify } from "node:util";
import { REPLAY_SERVER } from "@pagepath/runner";
import { tempDir } from "./fixture-profile.js";
import { h2Get, readJsonLines, startReplay, synthetic } from "./replay-harness.js";

const run = promisify(execFile);
const ORIGIN = "https://www.cc.test";
const page = () => synthetic(ORIGIN, [{ path: "/big.bin", mimeType: "application/octet-stream", bytes: 300_000, delayMs: 0 }]);

/** The congestion controller the server's log gives the one HTTP/2 connection of a fetch. */
async function controllerOf(args: string[], address: string): Promise<string | null> {
  const replay = await startReplay(page(), ["--protocol", "h2", "--first-address", address, ...args]);
  try {
    assert.deepEqual(await h2Get(`${address}:443`, "www.cc.test", ["/big.bin"]), [200]);
  } finally {
    assert.equal(await replay.stop(), 0);
  }
  const [conn] = readJsonLines(join(replay.out, "connections.jsonl"));
  return conn.congestion;
}

describe("the replay server's congestion controller", () => {
  it("is cubic by default whatever the host's default, and the one asked for otherwise, as the kernel reports it", async () => {
    assert.equal(await controllerOf([], "127.0.7.1"), "cubic");
    assert.equal(await controllerOf(["--congestion", "reno"], "127.0.7.11"), "reno");
  });

  it("refuses one the stack lacks, naming the ones it has", async () => {
    const out = join(tempDir("cc-bad"), "out");
    const refused = async (args: string[]) => {
      const e: any = await run(REPLAY_SERVER, ["serve", page(), "--out", out, "--first-address", "127.0.7.21", ...args]).then(() => assert.fail(`started with ${args.join(" ")}`), (e) => e);
      assert.equal(e.code, 2);
      return e.stderr as string;
    };
    assert.match(await refused(["--congestion", "no-such-cc"]), /--congestion: this kernel has no "no-such-cc"; \/proc\/sys\/net\/ipv4\/tcp_available_congestion_control lists .*cubic/);
    assert.match(await refused(["--protocol", "h3", "--congestion", "reno"]), /--congestion: tquic has no "reno"; it has cubic, bbr, bbr3, copa/);
  });
});
