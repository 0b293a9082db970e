import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findActivities, type Activity, type Segment } from "@pagepath/graph-builder/dist/src/activities.js";
import { buildActivityNodes } from "@pagepath/graph-builder/dist/src/activity-nodes.js";
import type { BuildContext } from "@pagepath/graph-builder/dist/src/context.js";
import { Draft } from "@pagepath/graph-builder/dist/src/draft.js";
import { linkActivities } from "@pagepath/graph-builder/dist/src/links.js";

const F = "main";

/** A module evaluation from `start` to `end`, cut into pieces at `cuts` by nested timer activities. */
function evaluation(start: number, end: number, cuts: number[]): Activity {
  const a: Activity = { kind: "script", interval: { name: "v8.evaluateModule", start, end, args: {}, children: [], marks: [] }, frameId: F, pieces: [], touchedFrames: new Set(), parent: null };
  const bounds = [start, ...cuts, end];
  for (let i = 0; i + 1 < bounds.length; i++) {
    if (i > 0) {
      const at = bounds[i]!;
      const nested: Activity = { kind: "timer", interval: { name: "TimerFire", start: at, end: at, args: { data: { timerId: i } }, children: [], marks: [] }, frameId: F, pieces: [], touchedFrames: new Set(), parent: a };
      nested.pieces.push({ activity: nested, index: 0, start: at, end: at, requests: [], timers: [] } satisfies Segment);
      a.pieces.push(nested);
    }
    a.pieces.push({ activity: a, index: i, start: bounds[i]!, end: bounds[i + 1]!, requests: [], timers: [] } satisfies Segment);
  }
  return a;
}

/** The main frame's context with the given module tags and nothing fetched. */
function context(draft: Draft, modules: string[]): BuildContext {
  const scripts = modules.map((src, line) => ({ src, type: "module" as const, line, async: false }));
  return {
    draft,
    mainFrameId: F,
    frames: new Map([[F, { id: F, parentId: null, docs: [{ scripts, parses: [], chunks: [] }] }]]),
    segmentNode: new Map(),
    first: new Map(),
    last: new Map(),
    callUrl: new Map(),
    modulesSeen: new Map(),
    moduleImports: new Map(),
    moduleUrls: new Set(),
    resourceByRequest: new Map(),
    archive: [],
  } as unknown as BuildContext;
}

describe("activity nodes: module evaluations", () => {
  it("an evaluation with no module to run follows the frame's work before it, not navigation start", () => {
    const a = evaluation(10, 13, []);
    const b = evaluation(14, 15, []);
    const draft = new Draft();
    const ctx = context(draft, ["https://a.test/a.js"]);
    buildActivityNodes(ctx, [a, b], new Map());
    linkActivities(ctx, [a, b]);
    const [first, unnamed] = draft.nodes;
    assert.equal(unnamed!.script!.url, "");
    assert.ok(draft.edges.some((e) => e.from === first!.id && e.to === unnamed!.id && e.rule === "R14"));
    assert.ok(draft.warnings.some((w) => w.startsWith("a module evaluation at 14.0 ms: no arrived module")));
  });

  it("a module's evaluation is named once, however many pieces nested work cuts it into", () => {
    // The trace does not name module evaluations; they run in document order, a.js then b.js.
    const a = evaluation(10, 13, [11, 12]);
    const b = evaluation(14, 15, []);
    const activities = [a, ...a.pieces.filter((p): p is Activity => !("activity" in p)), b];
    const draft = new Draft();
    const ctx = context(draft, ["https://a.test/a.js", "https://a.test/b.js"]);
    buildActivityNodes(ctx, activities, new Map());
    const modules = draft.nodes.filter((n) => n.kind === "script" && n.script!.type === "module");
    assert.deepEqual(
      modules.map((n) => [n.start, n.script!.url]),
      [[10, "https://a.test/a.js"], [11, "https://a.test/a.js"], [12, "https://a.test/a.js"], [14, "https://a.test/b.js"]],
    );
  });
});

describe("activity nodes: parses no document holds", () => {
  it("the rest of a document a script wrote follows the frame's work before it, not navigation start", () => {
    // ckeditor4 writes an editing iframe's document; its parser finishes in a later task, with no
    // stack and no fetched document to hold the chunk.
    const writer = evaluation(10, 13, []);
    writer.interval.args = { data: { url: "https://a.test/writer.js" } };
    const parse: Activity = { kind: "parse", interval: { name: "ParseHTML", start: 20, end: 21, args: { beginData: { url: "https://a.test/index.html", startLine: 0 } }, children: [], marks: [] }, frameId: "written-frame", pieces: [], touchedFrames: new Set(), parent: null };
    parse.pieces.push({ activity: parse, index: 0, start: 20, end: 21, requests: [], timers: [] } satisfies Segment);
    const draft = new Draft();
    const ctx = context(draft, []);
    buildActivityNodes(ctx, [writer, parse], new Map());
    linkActivities(ctx, [writer, parse]);
    const [script, chunk] = draft.nodes;
    assert.equal(chunk!.kind, "parse");
    assert.deepEqual(draft.edges.filter((e) => e.to === chunk!.id).map((e) => [e.from, e.rule]), [[script!.id, "R4"]]);
  });
});

describe("activities: which other frames an activity reached into", () => {
  it("counts a request or timer made in another frame, not that frame's load marks at the handler's last microsecond", () => {
    const mark = (name: string, at: number, frame: string) => ({ name, at, args: { data: { frame } } });
    const call = { name: "FunctionCall", start: 0.02, end: 0.052, args: { data: { frame: F } }, children: [], marks: [] };
    // The iframe element's load handler ends at 0.061 ms; the subframe's MarkLoad is stamped there too.
    const dispatch = {
      name: "EventDispatch", start: 0, end: 0.061, args: { data: { type: "load" } }, children: [call],
      marks: [mark("MarkLoad", 0.061, "child"), mark("MarkDOMContent", 0.061, "child"), mark("ResourceSendRequest", 0.03, "other"), mark("TimerInstall", 0.04, "third")],
    };
    const { activities } = findActivities({ roots: [dispatch], marks: [], tasks: [], loadDispatches: [], paints: new Map(), renders: new Map(), restyles: new Map(), animationFrames: [] });
    assert.equal(activities.length, 1);
    assert.equal(activities[0]!.kind, "event");
    assert.deepEqual([...activities[0]!.touchedFrames].filter((f) => f !== F).sort(), ["other", "third"]);
  });
});
