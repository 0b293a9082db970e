import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fixtureDir, serveSite, type RunningSite } from "@pagepath/corpus";
import { buildGraph, loadRecording, validateGraph, type Graph, type GraphNode } from "@pagepath/graph-builder";
import type { RecordingManifest } from "@pagepath/profiler";
import { tempDir } from "./fixture-profile.js";
import { profileRulePages } from "./rules-fixtures.js";

const HERO = "https://cdn.rules.test/img/hero.png";
const THEME = "https://cdn.rules.test/theme.css";

describe("first and largest contentful paint: recorded by the profiler in Chromium, placed in the graph", () => {
  let site: RunningSite;
  const recs = new Map<string, ReturnType<typeof loadRecording>>();
  const graphs = new Map<string, Graph>();

  before(async () => {
    site = await serveSite(fixtureDir("rules"));
    const dirs = await profileRulePages(site, tempDir("paints"), ["lcp-image", "no-contentful-paint"]);
    for (const [page, dir] of dirs) {
      const rec = loadRecording(dir);
      recs.set(page, rec);
      graphs.set(page, buildGraph(rec));
    }
  });
  after(async () => site?.close());

  const ms = (rec: ReturnType<typeof loadRecording>, s: number) => (s - rec.manifest.lifecycle.navigationStartMonotonic!) * 1000;
  const entryEnd = (rec: ReturnType<typeof loadRecording>, url: string) => {
    const e = rec.archive.find((x) => x.url === url);
    assert.ok(e?.times.end, `no finished archive entry for ${url}`);
    return ms(rec, e.times.end);
  };
  const only = (g: Graph, kind: GraphNode["kind"]) => {
    const found = g.nodes.filter((n) => n.kind === kind);
    assert.equal(found.length, 1, `one ${kind} node, got ${found.map((n) => n.id).join(", ") || "none"}`);
    return found[0]!;
  };
  const parentsOf = (g: Graph, n: GraphNode) => g.edges.filter((e) => e.to === n.id).map((e) => ({ node: g.nodes.find((x) => x.id === e.from)!, rule: e.rule }));

  it("lcp-image: FCP after the head's style sheet, LCP is the delayed image, painted after it arrived", () => {
    const rec = recs.get("lcp-image")!;
    const life = rec.manifest.lifecycle;
    assert.ok(life.firstContentfulPaint !== null && life.largestContentfulPaint !== null, JSON.stringify(life));
    assert.ok(life.firstContentfulPaint >= entryEnd(rec, THEME), "the first paint waits for the render-blocking style sheet");
    assert.ok(life.largestContentfulPaint >= entryEnd(rec, HERO), `LCP ${life.largestContentfulPaint} ms after the image ended at ${entryEnd(rec, HERO)} ms`);
    assert.ok(life.largestContentfulPaint > life.firstContentfulPaint + 100, "the image is held back 200 ms by the server: the text paints well before it");
    assert.deepEqual(life.largestContentfulPaintElement, { type: "image", nodeName: "IMG", url: HERO, size: 600 * 300 });
    assert.equal(life.largestContentfulPaintMissing, null);
  });

  it("lcp-image: the graph's fcp waits for the style sheet and the parser, lcp for fcp and the image's resource", () => {
    const g = graphs.get("lcp-image")!;
    assert.deepEqual(validateGraph(JSON.parse(JSON.stringify(g)), "lcp-image"), []);
    const life = recs.get("lcp-image")!.manifest.lifecycle;
    const fcp = only(g, "fcp");
    const lcp = only(g, "lcp");
    // Each marker ends at the recorded paint and lasts its frame's rendering, which began after what it waited for.
    assert.equal(fcp.end, life.firstContentfulPaint);
    assert.equal(lcp.end, life.largestContentfulPaint);
    for (const m of [fcp, lcp]) {
      assert.ok(m.duration >= 0 && Math.abs(m.start + m.duration - m.end) < 1e-6, `${m.id}: ${m.start} + ${m.duration} = ${m.end}`);
      for (const p of parentsOf(g, m)) assert.ok(p.node.end <= m.start + 1e-6, `${m.id} starts at ${m.start}, after ${p.node.id} ended at ${p.node.end}`);
    }
    assert.equal(fcp.excluded, null);
    assert.equal(lcp.excluded, null, "the paint comes after the load event here, yet it is emulated");
    assert.deepEqual(lcp.lcp, life.largestContentfulPaintElement);
    const intoFcp = parentsOf(g, fcp);
    assert.ok(intoFcp.every((p) => p.rule === "paint-fcp"));
    assert.ok(intoFcp.some((p) => p.node.kind === "css" && p.node.css!.url === THEME), `fcp parents: ${intoFcp.map((p) => p.node.label)}`);
    assert.ok(intoFcp.some((p) => p.node.kind === "parse"));
    assert.ok(!intoFcp.some((p) => p.node.resource?.url === HERO), "the first paint does not wait for the image");
    const intoLcp = parentsOf(g, lcp);
    assert.ok(intoLcp.every((p) => p.rule === "paint-lcp"));
    assert.ok(intoLcp.some((p) => p.node === fcp));
    assert.ok(intoLcp.some((p) => p.node.kind === "resource" && p.node.resource!.url === HERO), `lcp parents: ${intoLcp.map((p) => p.node.label)}`);
    assert.deepEqual(g.recorded, { domContentLoaded: life.domContentLoaded, load: life.load, firstContentfulPaint: life.firstContentfulPaint, largestContentfulPaint: life.largestContentfulPaint, largestContentfulPaintMissing: null });
  });

  it("lcp-image: the recording's layout.json places the text and the image, and the graph makes them LCP candidates", () => {
    const rec = recs.get("lcp-image")!;
    const layout = rec.layout;
    assert.ok(layout && rec.manifest.files.layout === true, "the profiler wrote layout.json");
    assert.ok(layout.viewport.width > 600 && layout.viewport.height > 300, JSON.stringify(layout.viewport));
    const hero = layout.images.find((i) => i.url === HERO);
    assert.ok(hero?.rect, JSON.stringify(layout.images));
    assert.equal((hero.rect[2] - hero.rect[0]) * (hero.rect[3] - hero.rect[1]), 600 * 300, "the image's box, as Chromium sized the candidate");
    assert.deepEqual(hero.natural, [600, 300]);
    const line = layout.texts.find((t) => t.head.startsWith("This line paints first"));
    assert.ok(line?.rect && layout.blocks[line.block]!.nodeName === "P", JSON.stringify(layout.texts));
    assert.equal(line.blank, false, "a line of words is not blank");
    assert.ok(layout.texts.some((t) => t.blank === true && /^\s+$/.test(t.head)), "the line breaks between the body's tags are blank text nodes");

    const g = graphs.get("lcp-image")!;
    const candidates = g.lcpCandidates ?? [];
    const image = candidates.find((c) => c.url === HERO);
    assert.ok(image, JSON.stringify(candidates));
    assert.equal(image.recorded, true, "the recorded element is the image");
    assert.deepEqual(image.sizes.map((s) => s.size), [180000]);
    const heroNode = g.nodes.find((n) => n.kind === "resource" && n.resource!.url === HERO)!;
    assert.deepEqual(image.waitsFor, [heroNode.id]);
    const text = candidates.find((c) => c.type === "text" && c.nodeName === "P");
    assert.ok(text && !text.recorded && text.waitsFor.length === 0, JSON.stringify(candidates));
    const chunk = g.nodes.find((n) => n.id === text.sizes[0]!.after)!;
    assert.equal(chunk.kind, "parse", "the paragraph's size counts from the parse chunk that parsed it");
    assert.ok(text.sizes[0]!.size > 0 && text.sizes[0]!.size < 180000);
  });

  it("no-contentful-paint: no FCP, no LCP, and the recording and graph say why", () => {
    const rec = recs.get("no-contentful-paint")!;
    const life = rec.manifest.lifecycle;
    assert.equal(life.firstContentfulPaint, null);
    assert.equal(life.largestContentfulPaint, null);
    assert.equal(life.largestContentfulPaintElement, null);
    assert.match(life.largestContentfulPaintMissing ?? "", /no largest contentful paint candidate/);
    const g = graphs.get("no-contentful-paint")!;
    assert.deepEqual(validateGraph(JSON.parse(JSON.stringify(g)), "no-contentful-paint"), []);
    assert.ok(!g.nodes.some((n) => n.kind === "fcp" || n.kind === "lcp"));
    assert.equal(g.recorded.largestContentfulPaintMissing, life.largestContentfulPaintMissing);
  });

  it("a recording made before the element was recorded still gets an lcp marker, with the element unknown", () => {
    const rec = recs.get("lcp-image")!;
    const { largestContentfulPaintElement: _e, largestContentfulPaintMissing: _m, ...older } = rec.manifest.lifecycle;
    const g = buildGraph({ ...rec, manifest: { ...rec.manifest, lifecycle: older } as RecordingManifest });
    const lcp = only(g, "lcp");
    assert.equal(lcp.lcp, null);
    assert.equal(g.lcpCandidates, undefined, "without the recorded element's size the marker alone decides");
    assert.ok(parentsOf(g, lcp).some((p) => p.node.kind === "fcp"));
    assert.deepEqual(validateGraph(JSON.parse(JSON.stringify(g)), "older"), []);
  });
});
