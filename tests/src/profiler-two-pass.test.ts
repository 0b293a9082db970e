import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fixtureDir, serveSite, type RunningSite } from "@pagepath/corpus";
import { buildGraph, canonicalGraph, loadRecording, validateGraph } from "@pagepath/graph-builder";
import { recordPage, type Recording } from "@pagepath/profiler";
import { optionsFor, tempDir } from "./fixture-profile.js";
import { goldenDiff, profileRulePages } from "./rules-fixtures.js";

/**
 * `profile --passes 2`: the timing of a load recorded with the trace alone, the content of one
 * recorded with the Network domain. The graph must not change structure for it: the rule pages
 * whose structure does not depend on how fast the page loads (redirects, fetch and XHR, frames, a
 * repeated image, modules, document.write, preloads) must match the same goldens as one pass.
 */
const PAGES = ["redirect", "xhr-fetch", "iframes", "repeated", "module-script", "document-write", "preload", "sync-script"];

describe("two-pass recordings: timing from a trace-only load, content from a Network-domain load", () => {
  let site: RunningSite;
  let recordings: Map<string, string>;

  before(async () => {
    site = await serveSite(fixtureDir("rules"));
    recordings = await profileRulePages(site, tempDir("two-pass"), PAGES, { passes: 2 });
  });
  after(async () => site?.close());

  for (const page of PAGES) {
    it(`${page}: the graph's structure matches its golden, every request paired`, () => {
      const rec = loadRecording(recordings.get(page)!);
      const passes = rec.manifest.passes!;
      assert.ok(passes, "the manifest says the recording has two passes");
      assert.deepEqual([passes.timingOnly, passes.contentOnly], [[], []]);
      const lcp = rec.manifest.lifecycle.largestContentfulPaintElement;
      if (lcp?.type === "text") assert.notEqual(lcp.font, undefined, "a text LCP element's font, read in the timing pass, is kept");
      const g = buildGraph(rec);
      assert.deepEqual(validateGraph(JSON.parse(JSON.stringify(g)), page), []);
      const d = goldenDiff(page, canonicalGraph(g));
      assert.equal(d, "", `${page} (two passes) differs from its golden graph:\n${d}`);
    });
  }

  it("times every request as the timing pass's trace saw it, under the trace's ids", () => {
    const rec = loadRecording(recordings.get("xhr-fetch")!);
    const sent = new Map<string, number>();
    for (const e of rec.trace as Array<{ name: string; ts: number; args: { data?: { requestId?: string } } }>) {
      const id = e.args?.data?.requestId;
      if (e.name === "ResourceSendRequest" && id) sent.set(id, Math.min(e.ts / 1e6, sent.get(id) ?? Infinity));
    }
    assert.ok(rec.archive.length >= 4);
    for (const e of rec.archive) {
      assert.ok(sent.has(e.requestId), `${e.url}: ${e.requestId} is a request of the timing pass's trace`);
      // A navigation is sent when the browser's ResourceWillSendRequest says, before the renderer's ResourceSendRequest.
      if (e.resourceType === "Document") assert.ok(e.times.start < sent.get(e.requestId)!, e.url);
      else if (!e.id.includes("#")) assert.equal(e.times.start, sent.get(e.requestId), e.url);
      assert.equal(e.bodyMissing, null, `${e.url} has the content pass's body`);
    }
  });

  describe("on the fidelity fixtures", () => {
    let fidelity: RunningSite;
    const twoPasses = async (url: string) => (await recordPage(url, { ...optionsFor(fidelity, { stop: { quietMs: 1000, capMs: 20_000 } }), passes: 2 })).recording;
    before(async () => (fidelity = await serveSite(fixtureDir("fidelity"))));
    after(async () => fidelity?.close());

    it("a dedicated worker's script, which the renderer's trace never shows, is kept inside the script that started it", async () => {
      const recording = await twoPasses("https://www.fidelity.test/worker.html");
      const worker = recording.archive.find((e) => e.url.endsWith("/js/worker.js"));
      assert.ok(worker?.body, "worker.js is archived with its body");
      assert.deepEqual(recording.manifest.passes!.contentOnly, ["https://www.fidelity.test/js/worker.js"]);
      const frames = new Set(recording.manifest.lifecycle.frames.map((f) => f.frameId));
      for (const e of recording.archive) assert.ok(e.frameId === null || frames.has(e.frameId), `${e.url}: frame ${e.frameId} is one of the timing pass's`);
      const c = canonicalGraph(buildGraph(inMemory(recording)));
      assert.ok(c.edges.includes("js:inline:www.fidelity.test/worker.html@2 -> res:www.fidelity.test/js/worker.js [R2]"), c.edges.join("\n"));
    });

    it("a redirected navigation, whose first URL the trace does not name, is paired by its final one", async () => {
      const recording = await twoPasses("https://www.fidelity.test/moved.html");
      assert.deepEqual([recording.manifest.passes!.timingOnly, recording.manifest.passes!.contentOnly], [[], []]);
      const [first, final] = recording.archive;
      assert.equal(first!.url, "https://www.fidelity.test/moved.html");
      assert.equal(first!.redirectedTo, "https://www.fidelity.test/xhr-before-load.html");
      assert.equal(final!.requestId, first!.requestId);
      assert.ok(first!.times.start < final!.times.start && final!.times.start < final!.times.end!, "each hop sent when the browser sent it");
      assert.equal(recording.manifest.lifecycle.navigationStartMonotonic, first!.times.start);
      assert.deepEqual(validateGraph(JSON.parse(JSON.stringify(buildGraph(inMemory(recording)))), "moved"), []);
    });
  });
});

function inMemory(r: Recording) {
  return { dir: "", manifest: r.manifest, events: r.events, trace: r.trace, archive: r.archive, body: (sha: string) => r.bodies.get(sha) ?? null };
}
