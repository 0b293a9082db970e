import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BuildContext } from "@pagepath/graph-builder/dist/src/context.js";
import { Draft } from "@pagepath/graph-builder/dist/src/draft.js";
import { buildPaintMarkers } from "@pagepath/graph-builder/dist/src/paint-markers.js";
import type { GraphNode } from "@pagepath/graph-builder";

const F = "main";
const HTML = ['<html><head><link rel="stylesheet" href="a.css"></head>', "<body><p>Hello</p>", '<script src="big.js"></script>', "<p>after</p></body></html>"].join("\n");

/**
 * The main frame's document parsed in two chunks around a parser-blocking script after its first
 * paragraph; a blank frame painted at 20 ms, the first contentful one at 40 (presented at 45), and
 * `between` run after the blank frame; the first chunk parsed before it, or after it.
 */
function fcpParents(between: "sync script" | "timer" | "async script", contentAfterBlankFrame = false): string[] {
  const d = new Draft();
  const parse = (start: number, end: number, index: number, startLine: number, endLine: number) =>
    d.add({ kind: "parse", frameId: F, label: `p${index}`, start, end, duration: end - start, parse: { url: "https://a.test/", startLine, endLine, index, last: index === 1, bodyReached: index === 0 } });
  const p0 = contentAfterBlankFrame ? parse(21, 25, 0, 0, 1) : parse(0, 10, 0, 0, 1);
  d.add({ kind: "css", frameId: F, label: "a.css", start: 12, end: 13, duration: 1, css: { url: "https://a.test/a.css", segment: 0 } });
  if (between === "sync script") d.add({ kind: "script", frameId: F, label: "big.js", start: 30, end: 32, duration: 2, script: { url: "https://a.test/big.js", type: "sync", line: 0, segment: 0 } });
  else if (between === "async script") d.add({ kind: "script", frameId: F, label: "async.js", start: 30, end: 32, duration: 2, script: { url: "https://a.test/async.js", type: "async", line: null, segment: 0 } });
  else d.add({ kind: "timer", frameId: F, label: "timer", start: 30, end: 32, duration: 2, timer: { timerId: 1, timeoutMs: 0, singleShot: true, fire: 0, segment: 0 } });
  parse(33, 35, 1, 2, 3);
  const ctx = {
    draft: d,
    mainFrameId: F,
    manifest: { lifecycle: { firstContentfulPaint: 45, largestContentfulPaint: null, largestContentfulPaintMissing: "no candidate" } },
    frames: new Map([[F, { id: F, parentId: null, url: "https://a.test/", docs: [{ parses: [p0, d.nodes.find((n) => n.label === "p1")!], body: Buffer.from(HTML), chunks: [] }] }]]),
    mainPaints: [20, 40],
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
