import type { BuildContext, FrameState } from "./context.js";
import type { GraphNode } from "./graph.js";
import { dynamicallyImported, moduleTag } from "./modules.js";
import { reachable } from "./reach.js";
import { sameUrl, urlKey } from "./url-key.js";

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
    // A recording whose page never fired load (an archive that keeps no timing, a load that never
    // came): what each frame fetched all holds its load, as far as the recording knows.
    const noLoad = ctx.manifest.lifecycle.load === null;
    const loadAt = frame.recordedLoad ?? (noLoad ? Math.max(dclAt, ...[...ctx.resourceByRequest.values()].filter((r) => r.frameId === frame.id).map((r) => r.end)) : dclAt);
    const short = frame.id === ctx.mainFrameId ? "page" : `frame ${frame.url}`;
    frame.dcl = d.add({ kind: "dcl", frameId: frame.id, label: `DOMContentLoaded (${short})`, start: dclAt, end: dclAt, duration: 0 });
    frame.load = d.add({ kind: "load", frameId: frame.id, label: `load (${short})`, start: loadAt, end: loadAt, duration: 0 });
    d.edge(lastParse ?? doc?.chunks.at(-1), frame.dcl, "completion-dcl", "observed");
    d.edge(frame.dcl, frame.load, "completion-load", "observed");
  }
  for (const n of ctx.computations) {
    const frame = ctx.frames.get(n.frameId);
    if (!frame?.dcl || !frame.load) continue;
    // Module scripts of the document's own tags are deferred unless async; those import() runs are not.
    const deferred = n.kind === "script" && (n.script!.type === "defer" || (n.script!.type === "module" && moduleTag(frame.docs.slice(-1), n.script!.url)?.async === false));
    if (deferred && n.end <= frame.dcl.start + 1e-6) {
      d.edge(n, frame.dcl, "completion-dcl", "inferred");
    }
    if (n.kind === "event" && n.event!.target === "document" && n.end <= frame.dcl.start + 1e-6) {
      d.edge(n, frame.dcl, "completion-dcl", "observed");
    }
  }
  for (const [a, first] of ctx.first) {
    const frame = ctx.frames.get(first.frameId);
    if (a.parent !== null) continue;
    if (frame?.load && isWindowLoad(ctx, first, ctx.last.get(a)!)) {
      first.event!.target = "window";
      d.edge(frame.load, first, "completion-event", "observed");
    }
    const iframe = iframeLoadOf(ctx, first, ctx.last.get(a)!);
    if (iframe) {
      // The last load of the frame is its marker; an earlier document's is the end of its parsing.
      const last = iframe.load === (ctx.markLoad.get(iframe.frame.id)?.length ?? 0) - 1;
      d.edge(last ? iframe.frame.load : iframe.frame.docs[iframe.load]?.parses.at(-1), first, "completion-event", last ? "observed" : "inferred");
    }
  }
  // A frame's load waits for what it requested before its load event began firing; what its load
  // handlers (or its iframe element's) fetch comes after.
  const firing = new Map<string, number>();
  for (const e of d.edges) {
    const to = d.byId.get(e.to)!;
    const from = d.byId.get(e.from)!;
    if (e.rule === "completion-event" && from.kind === "load") firing.set(from.frameId, Math.min(firing.get(from.frameId) ?? Infinity, to.start));
  }
  // What the load event itself starts (its handlers and what they set off) comes after it whatever the link.
  const descendants = new Map<string, Set<string>>();
  const afterLoad = (load: GraphNode) => {
    let found = descendants.get(load.id);
    if (!found) descendants.set(load.id, (found = reachable(d.edges, [load.id], "down")));
    return found;
  };
  const late: { r: GraphNode; load: GraphNode; loadAt: number }[] = [];
  const imported = dynamicallyImported(ctx);
  const workerRequests = new Set(d.edges.filter((e) => e.rule === "worker").map((e) => e.to));
  const evaluations = evaluationsOfFiles(ctx);
  const byTimer = setOffByTimer(ctx);
  for (const r of ctx.resourceByRequest.values()) {
    const frame = ctx.frames.get(r.frameId);
    // A worker's script or what a worker requested (workers.ts).
    const ofWorker = ctx.workerUrls.has(urlKey(r.resource!.url)) || workerRequests.has(r.id);
    if (!frame?.load || !holdsLoad(r) || imported.has(r) || isPrefetch(frame, r) || ofWorker) continue;
    const loadAt = Math.min(frame.load.start, firing.get(frame.id) ?? Infinity);
    if (renderBound(r)) {
      if (r.start <= loadAt || boundBefore(ctx, r, loadAt)) d.edge(r, frame.load, "completion-load-raced", "inferred");
    } else if (r.start <= loadAt) {
      const raced = byTimer(r);
      const rule = raced ? "completion-load-raced" : "completion-load";
      d.edge(r, frame.load, rule, raced ? "inferred" : "observed");
      for (const run of evaluations.get(r.id) ?? []) if (run.end <= loadAt + 1e-6) d.edge(run, frame.load, rule, "inferred");
    } else if (r.resource!.initiatorType === "script" && !afterLoad(frame.load).has(r.id)) {
      late.push({ r, load: frame.load, loadAt });
    }
  }
  // Requested after load on the recording's link, by a timer or a script. A chain set in motion
  // while load still waited for the network can be overtaken by it on a slower link, where
  // Chromium's load fires later and finds the request out, and waits for it. A chain set in motion
  // once load waited for nothing more from the network (a loader's 4 ms timer after the last
  // parser-blocking script) keeps its place after load whatever the link. (What the browser
  // itself asks for after load, a favicon, never holds it.)
  if (late.length > 0) {
    // The raced edges added here lead into load markers, so neither index below changes as they are.
    const parents = parentsOf(ctx);
    const lastArrival = new Map<string, number>();
    for (const e of d.edges) {
      const from = d.byId.get(e.from)!;
      if (e.rule === "completion-load" && from.kind === "resource") lastArrival.set(e.to, Math.max(lastArrival.get(e.to) ?? -Infinity, from.end));
    }
    for (const { r, load, loadAt } of late) {
      if (setInMotion(parents, r, loadAt) < (lastArrival.get(load.id) ?? -Infinity)) d.edge(r, load, "completion-load-raced", "inferred");
    }
  }
  for (const frame of ctx.frames.values()) {
    const parent = frame.parentId ? ctx.frames.get(frame.parentId) : undefined;
    if (parent?.load && frame.load && frame.load.start <= parent.load.start) d.edge(frame.load, parent.load, "completion-load", "observed");
  }
}

/**
 * The evaluations of each script or style sheet file that load waits for, besides its bytes, by
 * file node id, each as its last segment: an element delays its document's load event until its
 * script has run or its sheet is parsed (HTML's "delay the load event"), so an async or
 * script-inserted script, a module, or a sheet that arrives late holds load for its evaluation. On
 * real-mathjax at 25 Mbit/s 20 ms Chromium's load fired 40 ms after an async script's file
 * arrived, once it had run; a graph whose load waited for the file alone fired 60 ms early.
 * Parser-blocking and deferred scripts already hold load through DOMContentLoaded.
 */
function evaluationsOfFiles(ctx: BuildContext): Map<string, GraphNode[]> {
  const lastOf = new Map([...ctx.first].map(([a, first]) => [first, ctx.last.get(a)!]));
  const late = (n: GraphNode) => n.kind === "css" || (n.kind === "script" && (n.script!.type === "async" || n.script!.type === "module"));
  const found = new Map<string, GraphNode[]>();
  for (const e of ctx.draft.edges) {
    const file = ctx.draft.byId.get(e.from)!;
    const run = ctx.draft.byId.get(e.to)!;
    if (!EVALUATES.has(e.rule) || file.kind !== "resource" || run.frameId !== file.frameId || !late(run)) continue;
    const last = lastOf.get(run) ?? run;
    const runs = found.get(file.id);
    if (runs) runs.push(last);
    else found.set(file.id, [last]);
  }
  return found;
}

/**
 * Whether a timer's callback set the node in motion: a timer of more than 0 ms among its
 * ancestors, short of the parser and rendering, whose work always comes before load. A timer does
 * not delay the load event (HTML's "delay the load event" names no timers), so what its callback
 * requests holds load only if the callback ran before the rest of what load waits for was done: a
 * race, whichever way the recording's link decided it. On gen-pagepath-4 an async script's 110 ms
 * timer asked for an image 120 ms before the recording's load; over HTTP/1.1 at 100 Mbit/s 80 ms
 * Chromium's load fired before the timer did (the image reached the server 130 ms after the
 * script's last byte left it), while a graph that made load wait for the image ended the model's
 * load 30% late. A timer of 0 ms is not
 * such a race: its callback runs before the load event that its installer's end lets go. On
 * real-mathjax the loader's 0 ms timer, set by an async script load waits for, asked for a script
 * that held Chromium's load in every replay (six conditions, three protocols).
 */
function setOffByTimer(ctx: BuildContext): (n: GraphNode) => boolean {
  const parents = parentsOf(ctx);
  const found = new Map<string, boolean>();
  const byTimer = (n: GraphNode): boolean => {
    const known = found.get(n.id);
    if (known !== undefined) return known;
    found.set(n.id, false);
    const set = (n.kind === "timer" && n.timer!.timeoutMs > 0) || (!BEFORE_ANY_TIMER.has(n.kind) && (parents.get(n.id) ?? []).some(byTimer));
    found.set(n.id, set);
    return set;
  };
  return byTimer;
}

/** Each node's parents by node id, as the draft's edges stand now. */
function parentsOf(ctx: BuildContext): Map<string, GraphNode[]> {
  const parents = new Map<string, GraphNode[]>();
  for (const e of ctx.draft.edges) {
    const list = parents.get(e.to);
    if (list) list.push(ctx.draft.byId.get(e.from)!);
    else parents.set(e.to, [ctx.draft.byId.get(e.from)!]);
  }
  return parents;
}

/** Kinds of node whose work is the parser's or rendering's, which a timer never sets in motion. */
const BEFORE_ANY_TIMER = new Set(["download", "parse", "render", "dcl", "load", "fcp", "lcp", "preconnect"]);

/** Rules from a fetched file to its evaluation (graph.ts RULES). */
const EVALUATES = new Set(["R10", "R11", "R17", "R18"]);

/**
 * Fetches that never delay a document's load event (HTML's "delay the load event" covers elements'
 * fetches, not these): fetch() and XHR, beacons and pings, prefetches of what a later page may need,
 * event streams and web sockets. Checked against Chromium on the fidelity fixtures (an XHR the server
 * answers 400 ms after load).
 */
const NEVER_HOLD_LOAD = new Set(["XHR", "Fetch", "Ping", "Prefetch", "EventSource", "WebSocket", "CSPViolationReport"]);

function holdsLoad(r: GraphNode): boolean {
  return !NEVER_HOLD_LOAD.has(r.resource!.resourceType);
}

/**
 * A resource that rendering asked for (lazyBound: a CSS background image or web font, a lazy
 * image). Chromium requests it at the next style and layout after what it is bound to is in, and
 * its load event waits for it if that came first: a race, whichever way the recording's link
 * decided it. On css-import.html at 4 Mbit/s, 40 ms, load fired at 345 and 354 ms before the
 * background image (requested at 347 ms) in two runs and at 484 ms after it in a third; on
 * lazy-images.html, where other images were still loading, at 450 ms after the lazy image. The
 * edge (completion-load-raced) lets the emulated browser run the same race.
 */
function renderBound(r: GraphNode): boolean {
  return !!r.resource!.lazyBound;
}

/** Everything the resource is bound to was done before load (the recording saw it requested after). */
function boundBefore(ctx: BuildContext, r: GraphNode, loadAt: number): boolean {
  const parents = ctx.draft.edges.filter((e) => e.to === r.id).map((e) => ctx.draft.byId.get(e.from)!);
  return parents.length > 0 && parents.every((p) => p.end <= loadAt + 1e-6);
}

/** A `<link rel=prefetch>` of the frame's document (Chromium types it Other; its load fired at 30 ms with a 340 ms prefetch out on the fidelity fixture). */
function isPrefetch(frame: FrameState, r: GraphNode): boolean {
  return frame.docs.some((d) => d.prefetches.some((u) => sameUrl(u, r.resource!.url)));
}

/**
 * The trace does not name an event's target, but Chrome's order within the task that finishes a
 * frame is fixed: the window's load dispatch, then (in a subframe) its iframe element's load
 * dispatch in the parent, then MarkLoad for the frame. A window's load handler is therefore the
 * last load dispatch before its frame's MarkLoad, or the one before last in a subframe.
 */
export function isWindowLoad(ctx: BuildContext, first: GraphNode, last: GraphNode): boolean {
  if (first.kind !== "event" || first.event!.type !== "load") return false;
  const subframe = ctx.frames.get(first.frameId)?.parentId ? 1 : 0;
  return markedAfter(ctx, first.frameId, last, subframe) !== undefined;
}

/**
 * The subframe whose load an iframe element's load handler reports, if any: its dispatch is the
 * last before that frame's MarkLoad (see above). Returns the frame and which of its loads
 * (documents) it was.
 */
export function iframeLoadOf(ctx: BuildContext, first: GraphNode, last: GraphNode): { frame: FrameState; load: number } | undefined {
  if (first.kind !== "event" || first.event!.type !== "load") return undefined;
  for (const f of ctx.frames.values()) {
    if (f.parentId !== first.frameId) continue;
    const load = markedAfter(ctx, f.id, last, 0);
    if (load !== undefined) return { frame: f, load };
  }
  return undefined;
}

/**
 * Which of the frame's MarkLoads follows the handler ending at last.end in the same task with
 * exactly `between` other load dispatches in between. Order, not a time gap: on a busy machine
 * the thread can be preempted for milliseconds between the dispatch and the mark.
 */
function markedAfter(ctx: BuildContext, frameId: string, last: GraphNode, between: number): number | undefined {
  const after = last.end + 1e-3;
  const task = taskAt(ctx.tasks, last.end);
  const i = (ctx.markLoad.get(frameId) ?? []).findIndex((at) =>
    at >= last.end - 1e-3 && (!ctx.tasks.length || (task !== undefined && at <= task.end + 1e-3)) &&
    ctx.loadDispatches.filter((t) => t > after && t < at).length === between);
  return i < 0 ? undefined : i;
}

/** The outermost task running at time t (nested run loops put tasks inside tasks). */
function taskAt(tasks: BuildContext["tasks"], t: number): { start: number; end: number } | undefined {
  for (const task of tasks) {
    if (task.start > t + 1e-3) return undefined;
    if (task.end >= t - 1e-3) return task;
  }
  return undefined;
}

/** When the chain that requested `r` after `loadAt` left what ran before it: the latest end among its nearest ancestors that ended by then. */
function setInMotion(parents: Map<string, GraphNode[]>, r: GraphNode, loadAt: number): number {
  let at = -Infinity;
  const seen = new Set<string>();
  const stack = [r.id];
  while (stack.length) {
    for (const p of parents.get(stack.pop()!) ?? []) {
      if (seen.has(p.id)) continue;
      seen.add(p.id);
      if (p.end <= loadAt + 1e-6) at = Math.max(at, p.end);
      else stack.push(p.id);
    }
  }
  return at;
}
