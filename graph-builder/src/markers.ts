import type { BuildContext } from "./context.js";
import type { GraphNode } from "./graph.js";

/**
 * DOMContentLoaded and load markers for every frame (Fig 3.9), always inserted: zero-duration nodes
 * the emulator uses to measure completion. DOMContentLoaded follows the frame's last parse chunk,
 * its deferred scripts and its DOMContentLoaded handlers; load follows DOMContentLoaded, every
 * resource the frame fetched before its load event, and its subframes' load markers.
 */
export function buildMarkers(ctx: BuildContext): void {
  const d = ctx.draft;
  for (const frame of ctx.frames.values()) {
    const doc = frame.docs.at(-1);
    const lastParse = doc?.parses.at(-1);
    const dclAt = frame.recordedDcl ?? lastParse?.end ?? doc?.chunks.at(-1)?.end ?? 0;
    const loadAt = frame.recordedLoad ?? dclAt;
    const short = frame.id === ctx.mainFrameId ? "page" : `frame ${frame.url}`;
    frame.dcl = d.add({ kind: "dcl", frameId: frame.id, label: `DOMContentLoaded (${short})`, start: dclAt, end: dclAt, duration: 0 });
    frame.load = d.add({ kind: "load", frameId: frame.id, label: `load (${short})`, start: loadAt, end: loadAt, duration: 0 });
    d.edge(lastParse ?? doc?.chunks.at(-1), frame.dcl, "completion-dcl", "observed");
    d.edge(frame.dcl, frame.load, "completion-load", "observed");
  }
  for (const n of ctx.computations) {
    const frame = ctx.frames.get(n.frameId);
    if (!frame?.dcl || !frame.load) continue;
    if (n.kind === "script" && (n.script!.type === "defer" || n.script!.type === "module") && n.end <= frame.dcl.start + 1e-6) {
      d.edge(n, frame.dcl, "completion-dcl", "inferred");
    }
    if (n.kind === "event" && n.event!.target === "document" && n.end <= frame.dcl.start + 1e-6) {
      d.edge(n, frame.dcl, "completion-dcl", "observed");
    }
  }
  for (const [a, first] of ctx.first) {
    const frame = ctx.frames.get(first.frameId);
    if (a.parent === null && frame?.load && isWindowLoad(ctx, first, ctx.last.get(a)!)) {
      first.event!.target = "window";
      d.edge(frame.load, first, "completion-event", "observed");
    }
  }
  for (const r of ctx.resourceByRequest.values()) {
    const frame = ctx.frames.get(r.frameId);
    if (frame?.load && r.start <= frame.load.start) d.edge(r, frame.load, "completion-load", "observed");
  }
  for (const frame of ctx.frames.values()) {
    const parent = frame.parentId ? ctx.frames.get(frame.parentId) : undefined;
    if (parent?.load && frame.load && frame.load.start <= parent.load.start) d.edge(frame.load, parent.load, "completion-load", "observed");
  }
}

/**
 * The trace does not name an event's target. A window's load handlers run in that window (their
 * frame) and end just as the trace marks the frame's load (MarkLoad follows the dispatch). An
 * iframe element's load handler ends as the iframe's load is marked, but runs in the parent frame.
 */
export function isWindowLoad(ctx: BuildContext, first: GraphNode, last: GraphNode): boolean {
  const marked = ctx.markLoad.get(first.frameId);
  // Chrome marks load within microseconds of the dispatch ending; anything later is another task.
  return first.kind === "event" && first.event!.type === "load" && marked !== undefined && marked >= last.end - 1e-3 && marked - last.end < 0.1;
}
