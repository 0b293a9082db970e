import assert from "node:assert/strict";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { corpusCatalogue, serveSite, type CorpusSite } from "@pagepath/corpus";
import { readGraphFile } from "@pagepath/graph-builder";
import { readBody, readRecording } from "@pagepath/profiler";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";
import { withTopology } from "./net-topology.js";
import { assertReplayedLikeRecorded, chromiumInClientNamespace, recordReplay, servedResponses, startReplay } from "./replay-harness.js";

/**
 * Builds every realistic corpus site the way a user does (`pagepath corpus build --kind realistic`:
 * packages from the registry, assembled, served, profiled in Chromium, graphs built and validated)
 * and holds each one to what a replay needs.
 */
describe("realistic corpus sites", () => {
  const work = tempDir("realistic");
  const data = join(work, "data");
  const sites: CorpusSite[] = corpusCatalogue(data, 0).filter((s) => s.kind === "realistic");
  let buildOutput = "";
  before(async () => {
    const r = await runCli(["corpus", "build", "--data", data, "--kind", "realistic", "--quiet-ms", "2000"], 40 * 60_000);
    buildOutput = r.stdout + r.stderr;
    assert.equal(r.code, 0, buildOutput);
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  it("number at least 15, and every one is recorded and built", () => {
    assert.ok(sites.length >= 15, `${sites.length} realistic recipes`);
    assert.match(buildOutput, new RegExp(`${sites.length} built, 0 already there, 0 failed`));
  });

  it("are multi-origin pages served over HTTPS with HTTP/2", () => {
    for (const site of sites) {
      const rec = readRecording(join(data, "recordings", site.name));
      const answered = rec.archive.filter((e) => e.response && !e.fromCache && /^https?:/.test(e.url));
      const hosts = new Set(answered.map((e) => new URL(e.url).hostname));
      const bytes = answered.reduce((sum, e) => sum + (e.body?.size ?? 0), 0);
      console.log(`${site.name}: ${answered.length} responses, ${(bytes / 1e6).toFixed(2)} MB, ${hosts.size} hosts (${[...hosts].join(" ")})`);
      assert.ok(hosts.size >= 3, `${site.name}: ${hosts.size} hosts (${[...hosts].join(", ")})`);
      const h2 = answered.filter((e) => e.response!.protocol === "h2").length;
      assert.ok(h2 / answered.length >= 0.9, `${site.name}: ${h2} of ${answered.length} responses over h2`);
    }
  });

  it("archive every response complete: the bytes each server sent, for every successful response", async () => {
    for (const site of sites) {
      const dir = join(data, "recordings", site.name);
      const rec = readRecording(dir);
      const server = await serveSite(site.siteDir);
      try {
        let checked = 0;
        for (const e of rec.archive) {
          if (!e.response || e.response.status < 200 || e.response.status >= 300 || e.redirectedTo || e.failure) continue;
          if (!/^https?:/.test(e.url) || e.response.status === 204 || e.method !== "GET") continue;
          assert.equal(e.bodyMissing, null, `${site.name}: ${e.url} has no archived body`);
          const served = server.bodyOf(e.url);
          assert.ok(served, `${site.name}: ${e.url} was answered but the site has no such file`);
          assert.ok(readBody(dir, e.body!.sha256).equals(served), `${site.name}: archived body of ${e.url} differs from what was served`);
          checked++;
        }
        assert.ok(checked >= 5, `${site.name}: only ${checked} bodies`);
      } finally {
        await server.close();
      }
    }
  });

  it("replay offline in Chromium through an emulated link, byte for byte, over HTTP/2 and HTTP/3", async () => {
    // The two with the most hosts; HTTP/2 with critical-path priorities from the site's graph.
    const hostCount = (name: string) => new Set(servedResponses(readRecording(join(data, "recordings", name)).archive).map((e) => new URL(e.url).host)).size;
    const chosen = sites.map((s) => s.name).sort((a, b) => hostCount(b) - hostCount(a) || a.localeCompare(b)).slice(0, 2);
    const cases: [string, string[], string][] = [
      [chosen[0]!, ["--protocol", "h2", "--priority", "critical-path", "--graph", join(data, "graphs", `${chosen[0]}.json`)], "h2"],
      [chosen[1]!, ["--protocol", "h3"], "h3"],
    ];
    for (const [name, args, protocol] of cases) {
      const recording = join(data, "recordings", name);
      const net = `rp-real-${protocol}`;
      await withTopology(net, ["--delay-ms", "10", "--rate-mbit", "50"], async () => {
        const replay = await startReplay(recording, args, net);
        let replayed: string;
        try {
          replayed = await recordReplay(readRecording(recording).manifest.url, replay, chromiumInClientNamespace(net));
        } finally {
          assert.equal(await replay.stop(), 0);
        }
        const compared = assertReplayedLikeRecorded(recording, replayed, protocol);
        console.log(`${name}: ${compared} responses replayed over ${protocol}, byte for byte`);
        assert.ok(compared >= 10, `${name}: only ${compared} responses compared`);
      });
    }
  });

  it("have graphs whose critical path ends at the main frame's load marker", () => {
    for (const site of sites) {
      const g = readGraphFile(join(data, "graphs", `${site.name}.json`));
      const main = g.frames.find((f) => f.id === g.mainFrame)!;
      assert.equal(g.criticalPath.nodes.at(-1), main.load, `${site.name}: critical path ends at ${g.criticalPath.nodes.at(-1)}`);
      assert.ok(g.criticalPath.totalMs > 0, `${site.name}: empty critical path`);
    }
  });
});
