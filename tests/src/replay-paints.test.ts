/**
 * Both replay clients report first and largest contentful paint beside DCL and load: the rule
 * fixture page whose largest paint is an image the server holds back, and the page that paints
 * nothing contentful, replayed by `pagepath replay` over one emulated path, h2 over TCP.
 */
import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fixtureDir, serveSite } from "@pagepath/corpus";
import { buildGraph, loadRecording, type Graph } from "@pagepath/graph-builder";
import { profileRulePages } from "./rules-fixtures.js";
import { readRunResultFile, type RunResult } from "@pagepath/results";
import { runCli } from "./cli-run.js";
import { tempDir } from "./fixture-profile.js";

describe("paint metrics in replays by both clients", { skip: process.getuid?.() !== 0 ? "needs root (pagepath replay)" : false }, () => {
  const work = tempDir("replay-paints");
  const graphs = new Map<string, Graph>();
  before(async () => {
    const site = await serveSite(fixtureDir("rules"));
    try {
      const recordings = await profileRulePages(site, join(work, "recordings"), ["lcp-image", "no-contentful-paint"]);
      for (const [page, dir] of recordings) {
        const graph = buildGraph(loadRecording(dir));
        graphs.set(page, graph);
        writeFileSync(join(work, `${page}.json`), JSON.stringify(graph));
      }
    } finally {
      await site.close();
    }
  });
  after(() => rmSync(work, { recursive: true, force: true }));

  async function replay(page: string, client: string): Promise<RunResult> {
    const out = join(work, `${page}-${client}.run.json`);
    const args = ["replay", join(work, `${page}.json`), "--client", client, "--protocol", "h2", "--transport", "tcp", "--rate-mbit", "20", "--rtt-ms", "20", "--timeout", "60", "--out", out];
    const r = await runCli(args, 180_000);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const run = readRunResultFile(out);
    assert.equal(run.status, "ok", run.error ?? "");
    assert.match(r.stdout, /first contentful paint (\d+ ms|not measured), largest contentful paint/);
    return run;
  }

  it("lcp-image: both clients paint first, then the image, which the emulated browser paints once it has arrived", async () => {
    for (const client of ["emulated", "chromium"]) {
      const m = (await replay("lcp-image", client)).metrics;
      console.log(`${client}: DCL ${m.domContentLoadedMs}, load ${m.loadMs}, FCP ${m.firstContentfulPaintMs}, LCP ${m.largestContentfulPaintMs} ms`);
      assert.ok(typeof m.firstContentfulPaintMs === "number" && typeof m.largestContentfulPaintMs === "number", `${client}: ${JSON.stringify(m)}`);
      // The server holds the image back 200 ms; the text needs only the document and the style sheet.
      assert.ok(m.largestContentfulPaintMs >= m.firstContentfulPaintMs + 150, `${client}: FCP ${m.firstContentfulPaintMs}, LCP ${m.largestContentfulPaintMs}`);
      assert.equal(m.largestContentfulPaintMissing, null);
      const element = m.largestContentfulPaintElement;
      assert.equal(element?.type, "image", `${client}: ${JSON.stringify(element)}`);
      assert.ok(element!.url?.endsWith("/img/hero.png") && element!.size > 0, `${client}: ${JSON.stringify(element)}`);
    }
    const emulated = readRunResultFile(join(work, "lcp-image-emulated.run.json"));
    const g = graphs.get("lcp-image")!;
    const hero = g.nodes.find((n) => n.resource?.url.endsWith("/img/hero.png"))!;
    const heroEnd = emulated.nodeTimings!.find((t) => t.nodeId === hero.id)!.end;
    assert.ok(emulated.metrics.largestContentfulPaintMs! >= heroEnd, `LCP ${emulated.metrics.largestContentfulPaintMs} before the image ended at ${heroEnd}`);
  });

  it("no-contentful-paint: neither client has an FCP or an LCP, and both say why there is no LCP", async () => {
    for (const client of ["emulated", "chromium"]) {
      const m = (await replay("no-contentful-paint", client)).metrics;
      assert.equal(m.firstContentfulPaintMs, null, client);
      assert.equal(m.largestContentfulPaintMs, null, client);
      assert.match(m.largestContentfulPaintMissing ?? "", /no largest contentful paint candidate/, client);
      assert.equal(m.largestContentfulPaintElement, null, client);
      assert.ok(m.loadMs! > 0, client);
    }
  });
});
