import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, it } from "node:test";
import { readRecording, recordPage, writeRecording, type ArchiveEntry } from "@pagepath/profiler";
import { optionsFor, startFixture, tempDir } from "./fixture-profile.js";
import { withTopology } from "./net-topology.js";
import { chromiumInClientNamespace, readJsonLines, recordReplay, startReplay } from "./replay-harness.js";

/** Responses that went over the network (not from a cache) and have a body to compare. */
function served(archive: ArchiveEntry[]): ArchiveEntry[] {
  return archive.filter((e) => e.fromCache === null && e.response !== null && e.body !== null);
}

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
    ["http1", "tcp", "http/1.1"],
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
        const original = served(readRecording(recording).archive);
        const again = readRecording(replayed);
        assert.equal(again.manifest.status, "complete", String(again.manifest.reason));
        const hosts = new Set(original.map((e) => new URL(e.url).host));
        const addresses = new Map<string, Set<string>>();
        let compared = 0;
        for (const e of original) {
          const got = served(again.archive).filter((x) => x.url === e.url && x.method === e.method);
          assert.ok(got.length > 0, `${e.url} was recorded but Chromium did not fetch it from the replay`);
          for (const g of got) {
            assert.equal(g.body!.sha256, e.body!.sha256, `${e.url}: the replayed body differs from the recorded one`);
            assert.equal(g.response!.protocol, expected, `${e.url} came over ${g.response!.protocol}`);
            assert.equal(g.response!.status, e.response!.status, `${e.url}: status`);
            const host = new URL(e.url).host;
            addresses.set(host, (addresses.get(host) ?? new Set()).add((g.response!.remoteAddress ?? "").replace(/:\d+$/, "")));
            compared++;
          }
        }
        assert.ok(compared >= 10, `only ${compared} responses compared`);
        // One address per recorded host, each in the server namespace's replay range.
        const all = [...addresses.values()].flatMap((s) => [...s]);
        assert.equal(new Set(all).size, hosts.size, `addresses per host: ${JSON.stringify([...addresses].map(([h, s]) => [h, [...s]]))}`);
        for (const a of all) assert.match(a, /^10\.200\.1\.\d+$/);
        const fidelity = JSON.parse(readFileSync(join(replay.out, "fidelity.json"), "utf8"));
        assert.ok(fidelity.exact >= compared, `fidelity: ${JSON.stringify(fidelity)}`);
        const streams = readJsonLines(join(replay.out, "streams.jsonl"));
        assert.ok(streams.length >= compared, `${streams.length} stream log lines for ${compared} responses`);
        const connections = readJsonLines(join(replay.out, "connections.jsonl"));
        assert.ok(connections.every((c) => c.protocol === expected), `connection protocols: ${connections.map((c) => c.protocol)}`);
        assert.ok(connections.every((c) => c.paths.length >= 1 && c.paths[0].bytesSent > 0), "every connection logs its bytes");
      });
    });
  }
});
