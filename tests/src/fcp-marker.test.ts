import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BuildContext } from "@pagepath/graph-builder/dist/src/context.js";
import { Draft } from "@pagepath/graph-builder/dist/src/draft.js";
import { buildPaintMarkers } from "@pagepath/graph-builder/dist/src/paint-markers.js";
import type { GraphNode } from "@pagepath/graph-builder";
import type { AnimationFrame } from "@pagepath/graph-builder/dist/src/animation-frames.js";
import type { Restyle } from "@pagepath/graph-builder/dist/src/trace-intervals.js";

const F = "main";
const HTML = ['<html><head><link rel="stylesheet" href="a.css"></head>', "<body><p>Hello</p>", '<script src="big.js"></script>', "<p>after</p></body></html>"].join("\n");

/** What the trace says beyond the nodes: by default no animation frames, and `between` restyled the page at 31 ms. */
interface TraceFacts {
  animationFrames?: AnimationFrame[];
  restyles?: Restyle[];
  paints?: number[];
  /** When `between` runs, if not 30-32 ms. */
  betweenAt?: [number, number];
}

/**
 * The main frame's document parsed in two chunks around a parser-blocking script after its first
 * paragraph; a blank frame painted at 20 ms, the first contentful one at 40 (presented at 45), and
 * `between` run after the blank frame; the first chunk parsed before it, or after it.
 */
function fcpParents(between: "sync script" | "timer" | "async script", contentAfterBlankFrame = false, facts: TraceFacts = {}): string[] {
  const [bs, be] = facts.betweenAt ?? [30, 32];
  const d = new Draft();
  const parse = (start: number, end: number, index: number, startLine: number, endLine: number) =>
    d.add({ kind: "parse", frameId: F, label: `p${index}`, start, end, duration: end - start, parse: { url: "https://a.test/", startLine, endLine, index, last: index === 1, bodyReached: index === 0 } });
  const p0 = contentAfterBlankFrame ? parse(21, 25, 0, 0, 1) : parse(0, 10, 0, 0, 1);
  d.add({ kind: "css", frameId: F, label: "a.css", start: 12, end: 13, duration: 1, css: { url: "https://a.test/a.css", segment: 0 } });
  if (between === "sync script") d.add({ kind: "script", frameId: F, label: "big.js", start: bs, end: be, duration: be - bs, script: { url: "https://a.test/big.js", type: "sync", line: 0, segment: 0 } });
  else if (between === "async script") d.add({ kind: "script", frameId: F, label: "async.js", start: bs, end: be, duration: be - bs, script: { url: "https://a.test/async.js", type: "async", line: null, segment: 0 } });
  else d.add({ kind: "timer", frameId: F, label: "timer", start: bs, end: be, duration: be - bs, timer: { timerId: 1, timeoutMs: 0, singleShot: true, fire: 0, segment: 0 } });
  parse(33, 35, 1, 2, 3);
  const ctx = {
    draft: d,
    mainFrameId: F,
    manifest: { lifecycle: { firstContentfulPaint: 45, largestContentfulPaint: null, largestContentfulPaintMissing: "no candidate" } },
    frames: new Map([[F, { id: F, parentId: null, url: "https://a.test/", docs: [{ parses: [p0, d.nodes.find((n) => n.label === "p1")!], body: Buffer.from(HTML), chunks: [] }] }]]),
    mainPaints: facts.paints ?? [20, 40],
    mainRestyles: facts.restyles ?? [{ at: 31, scheduled: true }, { at: 38.5, scheduled: false }],
    animationFrames: facts.animationFrames ?? [],
    tasks: [{ start: 38, end: 41 }],
  } as unknown as BuildContext;
  buildPaintMarkers(ctx, () => null);
  const fcp = d.nodes.find((n) => n.kind === "fcp") as GraphNode;
  return d.edges.filter((e) => e.to === fcp.id).map((e) => d.byId.get(e.from)!.label).sort();
}

describe("the first contentful paint's parents", () => {
  it("not a parser-blocking script after the parsed content, though it ran since the blank frame", () => {
    assert.deepEqual(fcpParents("sync script"), ["a.css", "p0"]);
  });

  it("but a timer that ran since the blank frame, which may have shown the content", () => {
    assert.deepEqual(fcpParents("timer"), ["a.css", "p0", "timer"]);
  });

  it("nor whatever else ran since the blank frame when the parser produced the content since then", () => {
    assert.deepEqual(fcpParents("async script", true), ["a.css", "p0"]);
    assert.deepEqual(fcpParents("timer", true), ["a.css", "p0"]);
  });

  it("an async script that ran since the blank frame counts when the content was parsed before it", () => {
    assert.deepEqual(fcpParents("async script"), ["a.css", "async.js", "p0"]);
  });
});

describe("the first contentful paint's parents, from the trace's animation frames", () => {
  // The frame presented at 45 began at 21, after the blank frame, and rendered from 38.
  const shown: AnimationFrame = { start: 21, render: 38, presented: 45 };
  const blank: AnimationFrame = { start: 5, render: 18, presented: 22 };

  it("what restyled the page in the frame that showed the content, though the content was parsed in it too (a DOMContentLoaded handler revealing the page)", () => {
    assert.deepEqual(fcpParents("timer", true, { animationFrames: [blank, shown] }), ["a.css", "p0", "timer"]);
  });

  it("not what ran in that frame and neither restyled the page nor ran with a restyle pending", () => {
    const restyles = [{ at: 22, scheduled: true }, { at: 26, scheduled: false }, { at: 38.5, scheduled: false }];
    assert.deepEqual(fcpParents("timer", true, { animationFrames: [blank, shown], restyles }), ["a.css", "p0"]);
  });

  it("not what ran in an earlier frame that painted nothing new", () => {
    const early: AnimationFrame = { start: 21, render: 27, presented: 30 };
    const late: AnimationFrame = { start: 29, render: 38, presented: 45 };
    assert.deepEqual(fcpParents("async script", false, { animationFrames: [blank, early, late], betweenAt: [23, 25], restyles: [{ at: 24, scheduled: true }] }), ["a.css", "p0"]);
  });

  it("of frames presented together, the first painted after the content was parsed, not a blank one before it", () => {
    // A busy machine: the blank frame, painted at 20 before the text was parsed (21-25), was
    // presented at 45 together with the frame that painted the text at 40.
    const blankTogether: AnimationFrame = { start: 5, render: 18, presented: 45 };
    assert.deepEqual(fcpParents("timer", true, { animationFrames: [blankTogether, shown] }), ["a.css", "p0", "timer"]);
  });

  it("the frame's own paint, not a later repaint before the presentation: what ran after it is no parent", () => {
    const paints = [20, 40, 43];
    assert.deepEqual(fcpParents("timer", false, { animationFrames: [blank, shown], paints, betweenAt: [41, 42], restyles: [{ at: 41.5, scheduled: true }] }), ["a.css", "p0"]);
    assert.deepEqual(fcpParents("timer", false, { paints, betweenAt: [41, 42], restyles: [{ at: 41.5, scheduled: true }] }), ["a.css", "p0", "timer"], "without animation frames, the last paint before the presentation");
  });
});
