import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { recordPage, writeRecording } from "@pagepath/profiler";
import { optionsFor, startFixture, tempDir } from "./fixture-profile.js";
import { withTopology } from "./net-topology.js";
import { assertReplayedLikeRecorded, chromiumInClientNamespace, readJsonLines, recordReplay, startReplay } from "./replay-harness.js";

describe("replaying the multi-origin fixture in Chromium through an emulated link", () => {
  let recording: string;
  let entry: string;

  before(async () => {
    // Recorded from the fixture's own servers, which are gone before the replay starts.
    const site = await startFixture();
    try {
      recording = join(tempDir("replay-src"), "rec");
      const { recording: r } = await recordPage(site.config.entry, optionsFor(site));
      writeRecording(recording, r);
      entry = site.config.entry;
    } finally {
      await site.close();
    }
  });

  const cases: [string, string, string][] = [
    ["h1", "tcp", "http/1.1"],
    ["h2", "tcp", "h2"],
    ["h3", "quic", "h3"],
  ];
  for (const [protocol, transport, expected] of cases) {
    it(`serves every recorded response byte for byte over ${expected} (${transport}), one server per host`, async () => {
      const net = `rp-${protocol}`;
      await withTopology(net, ["--delay-ms", "5", "--rate-mbit", "50"], async () => {
        const replay = await startReplay(recording, ["--protocol", protocol, "--transport", transport], net);
        let replayed: string;
        try {
          replayed = await recordReplay(entry, replay, chromiumInClientNamespace(net));
        } finally {
          assert.equal(await replay.stop(), 0, "the replay server exits cleanly on SIGTERM");
        }
        const compared = assertReplayedLikeRecorded(recording, replayed, expected);
        assert.ok(compared >= 10, `only ${compared} responses compared`);
        const fidelity = JSON.parse(readFileSync(join(replay.out, "fidelity.json"), "utf8"));
        assert.ok(fidelity.exact >= compared, `fidelity: ${JSON.stringify(fidelity)}`);
        const streams = readJsonLines(join(replay.out, "streams.jsonl"));
        assert.ok(streams.length >= compared, `${streams.length} stream log lines for ${compared} responses`);
        const hostCount = new Set(streams.map((x) => x.origin)).size;
        // Chromium also opens spare connections it may close unused (no TLS, no request).
        const used = readJsonLines(join(replay.out, "connections.jsonl")).filter((c) => c.requests > 0);
        assert.ok(used.length >= hostCount, `${used.length} connections carried requests`);
        assert.ok(used.every((c) => c.protocol === expected), `connection protocols: ${used.map((c) => c.protocol)}`);
        assert.ok(used.every((c) => c.paths.length >= 1 && c.paths[0].bytesSent > 0), "every connection logs its bytes");
      });
    });
  }
});
