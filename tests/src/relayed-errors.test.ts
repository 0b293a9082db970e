/**
 * pagepath's own binaries put their name before their errors; whatever relays such an error (the
 * emulator's background start, the runner's wrappers) must not put the same name before it again.
 */
import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";
import type { RunConfiguration } from "@pagepath/results";
import { networkUp, readTopology, runEmulatedClient, startReplayServer } from "@pagepath/runner";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { netnsList, withTopology } from "./net-topology.js";

const times = (text: string, name: string) => text.split(name).length - 1;

describe("errors relayed from pagepath's binaries name each binary once", { skip: process.getuid?.() !== 0 ? "needs root (topologies)" : false }, () => {
  it("pagepath net up under a name that is up: refused with one prefix, the first topology left up", async () => {
    await withTopology("tdup", ["--delay-ms", "5"], async () => {
      const r = await runCli(["net", "up", "--name", "tdup", "--delay-ms", "5"]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, /^pagepath net: a topology named "tdup" is already up/);
      assert.equal(times(r.stderr, "pagepath net:"), 1, r.stderr);
      const network = { name: "again", paths: [{ upMbps: 10, downMbps: 10, rttMs: 10, loss: 0, queue: null }] };
      const e = await networkUp("tdup", network, 1, process.cwd()).then(() => null, (x: Error) => x);
      assert.ok(e, "the runner's networkUp refuses too");
      assert.match(e.message, /^pagepath net up tdup \(network again\) failed: a topology named "tdup" is already up/);
      assert.equal(times(e.message, "pagepath net:"), 0, `named once, by the runner: ${e.message}`);
      assert.ok((await netnsList()).includes("pp-tdup-c"), "the topology that was up is still up");
    });
  });

  it("the replay server and the emulated browser, when they refuse their input", async () => {
    const dir = tempDir("relayed-errors");
    try {
      const server = await startReplayServer([join(dir, "missing"), "--out", join(dir, "out"), "--first-address", "127.0.6.9"]).then(() => null, (x: Error) => x);
      assert.ok(server, "the server refuses a recording that is not there");
      assert.match(server.message, /^pagepath-server exited with 2: .*missing: not a recording folder/);
      assert.equal(times(server.message, "pagepath-server"), 1, server.message);
      await withTopology("tbrw", ["--delay-ms", "1"], async () => {
        const configuration: RunConfiguration = { protocol: "h2", transport: "tcp", network: { name: "n", paths: [] }, serverModel: "serial", priority: "none", chunkSizeBytes: 16384, connectionsPerOrigin: 1, emulation: null };
        const browser = await runEmulatedClient({ graphFile: join(dir, "missing.json"), originsFile: join(dir, "missing-origins.json"), configuration, topology: readTopology("tbrw"), timeoutMs: 5000 }).then(() => null, (x: Error) => x);
        assert.ok(browser, "the browser refuses a graph that is not there");
        assert.match(browser.message, /^pagepath-browser exited with 2: .*missing/);
        assert.equal(times(browser.message, "pagepath-browser"), 1, browser.message);
      });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
