import type { NodeKind } from "./graph.js";
import { SYNC_WAIT, type Interval, type Mark, type MainThreadTrace } from "./trace-intervals.js";

/**
 * Page activities from the main thread's interval forest: parse chunks, script evaluations, style
 * sheet evaluations, timers and events. A computation that requests a resource or runs another
 * activity inside itself is split there (seed 001 §3.5.1): the pieces become separate nodes, joined
 * around the nested activity, so each request hangs off the piece that made it.
 */
export interface Segment {
  activity: Activity;
  index: number;
  start: number;
  end: number;
  /** CDP requestIds this piece sent (it ends at the last of them). */
  requests: string[];
  /** Timer ids installed during this piece. */
  timers: number[];
  /**
   * The request (CDP requestId) the piece before this one sent synchronously: this piece began
   * when its response was in, and the main thread was blocked until then (not counted in its time).
   */
  syncAfter?: string;
  id?: string;
}

export interface Activity {
  kind: Exclude<NodeKind, "download" | "resource" | "dcl" | "load" | "render" | "fcp" | "lcp" | "preconnect">;
  interval: Interval;
  frameId: string | null;
  /** Sequence of this activity's own pieces and the activities nested in it, in time order. */
  pieces: (Segment | Activity)[];
  /** Frames whose DOM this activity reached into (requests or calls in them while it ran). */
  touchedFrames: Set<string>;
  parent: Activity | null;
}

export interface ActivityIndex {
  activities: Activity[];
}

export function isSegment(p: Segment | Activity): p is Segment {
  return (p as Segment).activity !== undefined;
}

export function findActivities(t: MainThreadTrace): ActivityIndex {
  const activities: Activity[] = [];
  const visitTransparent = (iv: Interval) => {
    for (const c of iv.children) {
      if (kindOf(c, false)) visit(c, null);
      else visitTransparent(c);
    }
  };
  const visit = (iv: Interval, parent: Activity | null): Activity => {
    const a: Activity = { kind: kindOf(iv, parent !== null)!, interval: iv, frameId: frameOf(iv), pieces: [], parent, touchedFrames: new Set() };
    activities.push(a);
    const nested: Activity[] = [];
    const marks: Mark[] = [];
    const waits: Interval[] = [];
    const collect = (x: Interval) => {
      if (x.name === SYNC_WAIT) waits.push(x);
      marks.push(...x.marks);
      for (const m of x.marks) if (reachesInto(m)) a.touchedFrames.add(m.args.data.frame);
      if (x !== iv && x.name === "FunctionCall" && typeof x.args.data?.frame === "string") a.touchedFrames.add(x.args.data.frame);
      for (const c of x.children) {
        if (kindOf(c, true)) nested.push(visit(c, a));
        else collect(c);
      }
    };
    collect(iv);
    a.pieces = split(a, nested, marks, waits);
    return a;
  };
  for (const r of t.roots) {
    if (kindOf(r, false)) visit(r, null);
    else visitTransparent(r);
  }
  return { activities };
}

/** Which activity an interval is, if any. FunctionCall counts only when nothing encloses it. */
/**
 * A request or timer that an activity made in another frame reaches into it; that frame's own
 * load marks do not. Chromium marks a subframe's load (MarkLoad) right after its iframe element's
 * load dispatch, and the trace's whole microseconds put it at that dispatch's last microsecond
 * often enough to make a handler that never touched the frame look as if it had (R23 in CI).
 */
function reachesInto(m: Mark): boolean {
  return typeof m.args.data?.frame === "string" && m.name !== "MarkLoad" && m.name !== "MarkDOMContent";
}

function kindOf(iv: Interval, nested: boolean): Activity["kind"] | null {
  const d = iv.args.data ?? iv.args.beginData ?? {};
  switch (iv.name) {
    case "ParseHTML":
      if (!d.url || d.url === "about:blank") return null; // a new iframe's empty document is not the page's work
      // Inside a script, a parse that starts at line 0 is a fragment (innerHTML, jQuery's
      // parseHTML): the script's own work, not a piece of the document.
      return nested && !d.startLine ? null : "parse";
    case "EvaluateScript":
      return d.url ? "script" : null; // no URL: DevTools' own Runtime.evaluate, not the page
    case "v8.evaluateModule":
      return "script";
    case "TimerFire":
      return "timer";
    case "EventDispatch":
    case "XHRReadyStateChange":
    case "XHRLoad":
      return runsHandler(iv) ? "event" : null; // events nobody listens to cost nothing
    case "ParseAuthorStyleSheet":
      return "css";
    case "FunctionCall":
      return nested ? null : "script";
    case "RunMicrotasks":
      // Promise reactions leave no FunctionCall of their own; at top level they are callbacks.
      return nested || (iv.marks.length === 0 && !iv.children.some((c) => c.name === "FunctionCall")) ? null : "script";
    default:
      return null;
  }
}

function runsHandler(iv: Interval): boolean {
  return iv.children.some((c) => c.name === "FunctionCall" || (c.name !== "EventDispatch" && runsHandler(c)));
}

function frameOf(iv: Interval): string | null {
  const d = iv.args.data ?? iv.args.beginData ?? {};
  if (typeof d.frame === "string") return d.frame;
  const call = findCall(iv);
  return call?.args.data?.frame ?? null;
}

function findCall(iv: Interval): Interval | undefined {
  for (const c of iv.children) {
    if (c.name === "FunctionCall") return c;
    const deeper = findCall(c);
    if (deeper) return deeper;
  }
  return undefined;
}

/**
 * Cuts an activity at its requests and nested activities; drops empty pieces that carry nothing. A
 * request followed at once by a synchronous wait (sync XHR) ends its piece there, and the next
 * piece begins when the wait is over.
 */
function split(a: Activity, nested: Activity[], marks: Mark[], waits: Interval[]): (Segment | Activity)[] {
  type Cut = { at: number; mark?: Mark; child?: Activity };
  const cuts: Cut[] = [
    ...marks.filter((m) => m.name === "ResourceSendRequest" || m.name === "TimerInstall").map((m) => ({ at: m.at, mark: m })),
    ...nested.map((c) => ({ at: c.interval.start, child: c })),
  ].sort((x, y) => x.at - y.at);
  const pieces: (Segment | Activity)[] = [];
  let seg: Segment = { activity: a, index: 0, start: a.interval.start, end: a.interval.start, requests: [], timers: [] };
  const close = (at: number) => {
    seg.end = Math.max(seg.start, at);
    pieces.push(seg);
    seg = { activity: a, index: 0, start: at, end: at, requests: [], timers: [] };
  };
  for (const [i, c] of cuts.entries()) {
    if (c.child) {
      close(c.at);
      pieces.push(c.child);
      seg.start = seg.end = c.child.interval.end;
    } else if (c.mark!.name === "TimerInstall") {
      seg.timers.push(Number(c.mark!.args.data?.timerId));
    } else {
      const requestId = String(c.mark!.args.data?.requestId);
      seg.requests.push(requestId);
      close(c.at);
      const wait = waits.find((w) => waitOwner(cuts, w) === i);
      if (wait) {
        seg.start = seg.end = wait.end;
        seg.syncAfter = requestId;
      }
    }
  }
  close(a.interval.end);
  const kept = pieces.filter((p, i) => !isSegment(p) || p.requests.length > 0 || p.timers.length > 0 || p.syncAfter !== undefined || p.end - p.start > 0.001 || i === 0);
  let n = 0;
  for (const p of kept) if (isSegment(p)) p.index = n++;
  return kept;
}

/**
 * The cut whose request a synchronous wait is for: the request marked inside the wait, else the
 * last cut before the wait if that is a request. How far apart the send() and the wait are
 * depends on the machine, so no fixed gap is assumed.
 */
function waitOwner(cuts: { at: number; mark?: Mark }[], w: Interval): number {
  const isRequest = (c: { mark?: Mark }) => c.mark?.name === "ResourceSendRequest";
  const inside = cuts.findIndex((c) => isRequest(c) && c.at >= w.start && c.at <= w.end);
  if (inside >= 0) return inside;
  let before = -1;
  for (const [i, c] of cuts.entries()) if (c.at <= w.start) before = i;
  return before >= 0 && isRequest(cuts[before]!) ? before : -1;
}
