import assert from "node:assert/strict";
import { readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import type { RunningSite } from "@pagepath/corpus";
import { parseDevice, parseNetwork, readManifest, recordingName, recordPage } from "@pagepath/profiler";
import { runCli } from "./cli-run.js";
import { optionsFor, startFixture, tempDir } from "./fixture-profile.js";

describe("profiling conditions and concurrency", () => {
  let site: RunningSite;
  before(async () => (site = await startFixture()));
  after(async () => site?.close());

  it("applies and records network throttling, CPU throttling and a device", async () => {
    const plain = await recordPage(site.config.entry, optionsFor(site));
    const conditions = { cpuThrottlingRate: 2, network: parseNetwork("150,20000,20000"), device: parseDevice("iPhone 15 Pro") };
    const slow = await recordPage(site.config.entry, optionsFor(site, { conditions }));
    const m = slow.recording.manifest;
    assert.equal(m.status, "complete", String(m.reason));
    assert.deepEqual(m.conditions, conditions);
    // The document, then its blocking script, then the script's fetch: at least three 150 ms round trips.
    assert.ok(m.lifecycle.load! > 450, `throttled load at ${m.lifecycle.load} ms`);
    assert.ok(m.lifecycle.load! > plain.recording.manifest.lifecycle.load! + 300, "throttling slowed the load");
    const doc = slow.recording.archive.find((e) => e.url === site.config.entry)!;
    const ua = Object.entries(doc.requestHeaders).find(([k]) => k.toLowerCase() === "user-agent")?.[1];
    assert.match(ua ?? "", /iPhone/, "the device's user agent was sent");
  });

  it("runs a batch with --concurrency 2: pages overlap in time and all complete", async () => {
    const out = join(tempDir("concurrent"), "recs");
    const urls = ["https://www.fixture.test/index.html", "https://www.fixture.test/many.html", "https://ads.fixture.test/frame.html", "http://ads.fixture.test/frame.html"];
    const r = await runCli([
      "profile", ...urls, "--out", out, "--concurrency", "2", "--quiet-ms", "500",
      "--host-resolver-rules", site.hostResolverRules(), "--ignore-certificate-errors-spki-list", site.certificate.spkiHash,
    ]);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(r.stdout, /profiled 4 URL\(s\): 4 complete/);
    const spans = urls.map((u) => {
      const m = readManifest(join(out, recordingName(u)));
      const start = Date.parse(m.startedAt);
      return [start, start + m.durationMs] as const;
    });
    const overlaps = spans.some(([s1, e1], i) => spans.some(([s2], j) => i !== j && s2 >= s1 && s2 < e1));
    assert.ok(overlaps, "two pages were being profiled at the same time");
    assert.match(r.stderr, /profile 4\/4/, "progress is reported");
  });

  it("keeps a recording per set of conditions: a throttled load is not skipped as already recorded", async () => {
    const dir = tempDir("conditions-names");
    try {
      const out = join(dir, "recs");
      const url = "https://www.fixture.test/index.html";
      const profile = (...extra: string[]) =>
        runCli(["profile", url, "--out", out, "--quiet-ms", "300", "--host-resolver-rules", site.hostResolverRules(), "--ignore-certificate-errors-spki-list", site.certificate.spkiHash, ...extra]);
      const plain = await profile();
      assert.equal(plain.code, 0, plain.stdout + plain.stderr);
      const throttled = await profile("--cpu-throttle", "2");
      assert.equal(throttled.code, 0, throttled.stdout + throttled.stderr);
      assert.match(throttled.stdout, /1 complete, 0 incomplete, 0 failed, 0 skipped/, throttled.stdout);
      const names = readdirSync(out).sort();
      assert.equal(names.length, 2, `two recordings: ${names.join(", ")}`);
      // Default conditions keep the name they always had, so existing recordings stay valid.
      assert.equal(readManifest(join(out, recordingName(url))).conditions.cpuThrottlingRate, 1);
      const other = names.find((n) => n !== recordingName(url))!;
      assert.match(other, /cpu2/, "the name says the conditions");
      assert.equal(readManifest(join(out, other)).conditions.cpuThrottlingRate, 2);
      const again = await profile("--cpu-throttle", "2");
      assert.match(again.stdout, /0 complete, 0 incomplete, 0 failed, 1 skipped/, "the same conditions again are skipped");
      // A throttled recording made when names ignored conditions sits under the default name: it is
      // neither taken for a default load nor recorded over without --force.
      rmSync(join(out, recordingName(url)), { recursive: true });
      renameSync(join(out, other), join(out, recordingName(url)));
      const legacy = await profile();
      assert.equal(legacy.code, 1, legacy.stdout + legacy.stderr);
      assert.match(legacy.stdout, /holds a recording under other conditions \(cpu2\), made before recording names said their conditions: move it away, or give --force/);
      assert.equal(readManifest(join(out, recordingName(url))).conditions.cpuThrottlingRate, 2);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
