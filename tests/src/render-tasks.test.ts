import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { BuildContext } from "@pagepath/graph-builder/dist/src/context.js";
import { Draft } from "@pagepath/graph-builder/dist/src/draft.js";
import { buildRenderNodes } from "@pagepath/graph-builder/dist/src/render-tasks.js";
import type { GraphNode } from "@pagepath/graph-builder";

const F = "main";

/**
 * The main frame of a page parsed in two chunks (p0 0-10 ms, p1 21-30 ms) around one rendering
 * task (15-20 ms), with `between` run after p0 and before the rendering, and a web font the
 * rendering asked for at `fontAt` if given.
 */
function page(between: "async" | "sync" | "inline" | null, fontAt: number | null) {
  const d = new Draft();
  const parse = (start: number, end: number, index: number) =>
    d.add({ kind: "parse", frameId: F, label: `p${index}`, start, end, duration: end - start, parse: { url: "https://a.test/", startLine: index, endLine: index, index, last: index === 1 } });
  const p0 = parse(0, 10, 0);
  const script = between && d.add({ kind: "script", frameId: F, label: between, start: 12, end: 14, duration: 2, script: { url: "https://a.test/a.js", type: between, line: null, segment: 0 } });
  const p1 = parse(21, 30, 1);
  const font =
    fontAt === null
      ? null
      : d.add({ kind: "resource", frameId: F, label: "font", start: fontAt, end: fontAt + 50, duration: 50, resource: { lazyBound: true } as unknown as GraphNode["resource"] });
  const load = d.add({ kind: "load", frameId: F, label: "load", start: 100, end: 100, duration: 0 });
  const ctx = {
    draft: d,
    mainFrameId: F,
    frames: new Map([[F, { id: F, parentId: null, url: "https://a.test/", docs: [{ parses: [p0, p1] }], load, recordedDcl: null, recordedLoad: 100 }]]),
    computations: [p0, ...(script ? [script] : []), p1],
    mainRenders: [{ start: 15, end: 20 }],
  } as unknown as BuildContext;
  buildRenderNodes(ctx);
  const renders = d.nodes.filter((n) => n.kind === "render");
  const edge = (from: GraphNode | null | undefined, to: GraphNode | null | undefined, rule: string) =>
    d.edges.some((e) => e.from === from?.id && e.to === to?.id && e.rule === rule);
  return { renders, p0, p1, script, font, edge };
}

describe("render nodes: the main frame's renderings", () => {
  it("the parser resumes after a rendering it yielded to", () => {
    for (const between of [null, "inline"] as const) {
      const { renders, p1, edge } = page(between, null);
      assert.equal(renders.length, 1);
      assert.ok(edge(renders[0], p1, "render"), `after ${between ?? "nothing"}: the next parse chunk waits for the rendering`);
    }
  });

  it("but not for one that came after an async script: that script arriving late does not hold the parser", () => {
    const { renders, p1, edge } = page("async", null);
    assert.ok(!edge(renders[0], p1, "render"));
  });

  it("a rendering the parser yielded to follows the parser's renderings, not one that showed an async script's work", () => {
    // p0 0-10, async script 12-14, rendering 15-20, p1 21-30, rendering 31-35, p2 36-40.
    const d = new Draft();
    const parse = (start: number, end: number, index: number) =>
      d.add({ kind: "parse", frameId: F, label: `p${index}`, start, end, duration: end - start, parse: { url: "https://a.test/", startLine: index, endLine: index, index, last: index === 2 } });
    const p0 = parse(0, 10, 0);
    const script = d.add({ kind: "script", frameId: F, label: "async", start: 12, end: 14, duration: 2, script: { url: "https://a.test/a.js", type: "async", line: null, segment: 0 } });
    const p1 = parse(21, 30, 1);
    const p2 = parse(36, 40, 2);
    const load = d.add({ kind: "load", frameId: F, label: "load", start: 100, end: 100, duration: 0 });
    const ctx = {
      draft: d,
      mainFrameId: F,
      frames: new Map([[F, { id: F, parentId: null, url: "https://a.test/", docs: [{ parses: [p0, p1, p2] }], load, recordedDcl: null, recordedLoad: 100 }]]),
      computations: [p0, script, p1, p2],
      mainRenders: [{ start: 15, end: 20 }, { start: 31, end: 35 }],
    } as unknown as BuildContext;
    buildRenderNodes(ctx);
    const [afterScript, afterParser] = d.nodes.filter((n) => n.kind === "render");
    const edge = (from: GraphNode | undefined, to: GraphNode | undefined, rule = "render") => d.edges.some((e) => e.from === from?.id && e.to === to?.id && e.rule === rule);
    assert.ok(edge(script, afterScript, "render-raced") && edge(p0, afterScript), "the script's rendering waits for the script if it had started, and for the parser's chunk before it");
    assert.ok(edge(p1, afterParser) && edge(afterParser, p2), "the parser yields to the rendering after p1 and resumes after it");
    assert.ok(!edge(afterScript, afterParser), "the script arriving late does not hold that rendering, nor the parser behind it");
  });

  it("a rendering after a script from a file waits for it only if it had started, and for the computation before it", () => {
    for (const between of ["sync", "async"] as const) {
      const { renders, p0, script, edge } = page(between, null);
      assert.ok(edge(script, renders[0], "render-raced") && !edge(script, renders[0], "render"), `${between}: raced, not held`);
      assert.ok(edge(p0, renders[0], "render"), `${between}: the rendering still shows the parser's first chunk`);
    }
    const { renders, script, edge } = page("inline", null);
    assert.ok(edge(script, renders[0], "render") && !edge(script, renders[0], "render-raced"), "an inline script came with the document: held");
  });

  it("a rendering that asked for a font is cut after the request: the font waits for the first part only", () => {
    const { renders, p1, font, edge } = page(null, 16);
    assert.deepEqual(renders.map((r) => [r.start, r.end, r.duration]), [[15, 16, 1], [16, 20, 4]]);
    assert.ok(edge(renders[0], font, "render") && !edge(renders[1], font, "render"));
    assert.ok(edge(renders[0], renders[1], "continuation"));
    assert.ok(edge(renders[1], p1, "render"), "the parser waits for the whole rendering");
  });
  it("a rendering's time leaves out a synchronous request its task waited for: that wait is the request's", () => {
    // One task 10-100 ms holds a rendering and an event handler in two pieces, 12-14 and 80-82,
    // between which the main thread waited for a sync XHR (sent at 14, in at 80).
    const d = new Draft();
    const p0 = d.add({ kind: "parse", frameId: F, label: "p0", start: 0, end: 5, duration: 5, parse: { url: "https://a.test/", startLine: 0, endLine: 0, index: 0, last: true } });
    const sent = d.add({ kind: "event", frameId: F, label: "handler", start: 12, end: 14, duration: 2 });
    const xhr = d.add({ kind: "resource", frameId: F, label: "xhr", start: 14, end: 80, duration: 66, resource: { lazyBound: false } as unknown as GraphNode["resource"] });
    const rest = d.add({ kind: "event", frameId: F, label: "handler (part 2)", start: 80, end: 82, duration: 2 });
    d.edge(sent, xhr, "R2", "observed");
    d.edge(sent, rest, "continuation", "observed");
    d.edge(xhr, rest, "sync-xhr", "observed");
    const load = d.add({ kind: "load", frameId: F, label: "load", start: 200, end: 200, duration: 0 });
    const ctx = {
      draft: d,
      mainFrameId: F,
      frames: new Map([[F, { id: F, parentId: null, url: "https://a.test/", docs: [{ parses: [p0] }], load, recordedDcl: null, recordedLoad: 200 }]]),
      computations: [p0, sent, rest],
      mainRenders: [{ start: 10, end: 100 }],
    } as unknown as BuildContext;
    buildRenderNodes(ctx);
    const render = d.nodes.find((n) => n.kind === "render")!;
    assert.equal(Math.round(render.duration * 1000) / 1000, 90 - 2 - 2 - 66, "the task's 90 ms less the handler's two pieces and the 66 ms wait");
  });
});
