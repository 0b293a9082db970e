import { ANIMATION_FRAME_EVENTS, animationFrames, type AnimationFrame } from "./animation-frames.js";
import { urlKey } from "./url-key.js";

/**
 * The renderer main thread's trace events as a forest of intervals (who ran inside whom), plus the
 * instant events the builder needs. Pure: trace events in, intervals out; times in ms since
 * navigation start.
 */
export interface Interval {
  name: string;
  start: number;
  end: number;
  args: Record<string, any>;
  children: Interval[];
  /** Instant events (ResourceSendRequest, TimerInstall, ...) that happened directly inside. */
  marks: Mark[];
}

export interface Mark {
  name: string;
  at: number;
  args: Record<string, any>;
}

/** The URLs (urlKey) that trace events of one name carry in `args.data.url`, on any thread. */
export function urlsOfEvents(trace: unknown[], name: string): Set<string> {
  const urls = new Set<string>();
  for (const e of trace as { name?: string; args?: { data?: { url?: unknown } } }[]) {
    const url = e.name === name ? e.args?.data?.url : undefined;
    if (typeof url === "string" && url) urls.add(urlKey(url));
  }
  return urls;
}

/** The renderer main thread's name in the trace's metadata. */
export const MAIN_THREAD = "CrRendererMain";

/** The trace's name for the main thread waiting out a synchronous request. */
export const SYNC_WAIT = "URLLoader::loadSynchronously";

/** Interval events that can be, or can contain, page activities. */
export const INTERVALS = new Set([
  "ParseHTML", "EvaluateScript", "v8.evaluateModule", "TimerFire", "EventDispatch", "FunctionCall",
  "ParseAuthorStyleSheet", "XHRReadyStateChange", "XHRLoad", "RunMicrotasks", "v8.compileModule",
  // A synchronous XMLHttpRequest: the main thread blocked, waiting for the response.
  SYNC_WAIT,
]);
export const MARKS = new Set(["ResourceSendRequest", "TimerInstall", "TimerRemove", "MarkDOMContent", "MarkLoad"]);

export interface MainThreadTrace {
  roots: Interval[];
  /** Every mark, also those outside any interval (e.g. requests sent by the preload scanner's task). */
  marks: Mark[];
  /** The thread's tasks (RunTask), sorted by start: what ran without yielding to the event loop. */
  tasks: Array<{ start: number; end: number }>;
  /** When each load event dispatch began (with or without handlers), sorted. */
  loadDispatches: number[];
  /** When the thread painted each frame's content (`Paint`), per frame id, sorted. */
  paints: Map<string, number[]>;
  /** The tasks that rendered a frame (styled, laid out or painted it), per frame id, sorted. */
  renders: Map<string, Array<{ start: number; end: number }>>;
  /**
   * When the thread scheduled (invalidated) or did each frame's style or layout work, per frame id,
   * sorted: a computation that did neither, with none pending, changed nothing a paint could show.
   */
  restyles: Map<string, Restyle[]>;
  /** The threads' animation frames (animation-frames.ts), sorted by start. */
  animationFrames: AnimationFrame[];
}

export interface Restyle {
  at: number;
  /** Work scheduled (ScheduleStyleRecalculation, InvalidateLayout), not done (UpdateLayoutTree, Layout). */
  scheduled: boolean;
}

type RawEvent = { name: string; ph: string; ts: number; dur?: number; pid: number; tid: number; args?: Record<string, any> };

export function mainThreadTrace(trace: unknown[], navStartMonotonicS: number): MainThreadTrace {
  const events = trace as RawEvent[];
  const mainThreads = new Set<string>();
  // Most of a trace is other processes' events: skipping them by pid saves a key string per event.
  const mainPids = new Set<number>();
  for (const e of events) {
    if (e.name === "thread_name" && e.args?.name === MAIN_THREAD) {
      mainThreads.add(`${e.pid}:${e.tid}`);
      mainPids.add(e.pid);
    }
  }
  const t0 = navStartMonotonicS * 1e6;
  const ms = (us: number) => (us - t0) / 1000;
  const flat: Interval[] = [];
  const marks: Mark[] = [];
  const tasks: Array<{ start: number; end: number }> = [];
  const loadDispatches: number[] = [];
  const paints = new Map<string, number[]>();
  const restyles = new Map<string, Restyle[]>();
  const frameEvents: RawEvent[] = [];
  const threadTasks = new Map<string, Array<{ start: number; end: number }>>();
  const threadRendering: Array<{ thread: string; frame: string; at: number }> = [];
  const open = new Map<string, RawEvent[]>(); // B/E pairs, per thread and name
  for (const e of events) {
    if (!mainPids.has(e.pid)) continue;
    const thread = `${e.pid}:${e.tid}`;
    if (!mainThreads.has(thread)) continue;
    if (e.name === "RunTask" && e.ph === "X") {
      const task = { start: ms(e.ts), end: ms(e.ts + (e.dur ?? 0)) };
      tasks.push(task);
      const mine = threadTasks.get(thread);
      if (mine) mine.push(task);
      else threadTasks.set(thread, [task]);
    }
    if (e.name === "EventDispatch" && e.args?.data?.type === "load" && e.ph !== "E") loadDispatches.push(ms(e.ts));
    if (ANIMATION_FRAME_EVENTS.has(e.name)) frameEvents.push(e);
    const frame = e.args?.data?.frame;
    if (e.name === "Paint" && typeof frame === "string") {
      const times = paints.get(frame);
      if (times) times.push(ms(e.ts));
      else paints.set(frame, [ms(e.ts)]);
    }
    const rendered = e.args?.data?.frame ?? e.args?.beginData?.frame;
    if (RENDERING.has(e.name) && e.ph !== "E" && typeof rendered === "string") threadRendering.push({ thread, frame: rendered, at: ms(e.ts) });
    if (RESTYLES.has(e.name) && e.ph !== "E" && typeof rendered === "string") {
      const restyle = { at: ms(e.ts), scheduled: SCHEDULED.has(e.name) };
      const times = restyles.get(rendered);
      if (times) times.push(restyle);
      else restyles.set(rendered, [restyle]);
    }
    if (MARKS.has(e.name)) {
      marks.push({ name: e.name, at: ms(e.ts), args: e.args ?? {} });
    } else if (INTERVALS.has(e.name)) {
      if (e.ph === "X") flat.push(interval(e.name, ms(e.ts), ms(e.ts + (e.dur ?? 0)), e.args ?? {}));
      else if (e.ph === "B") {
        const key = `${e.pid}:${e.tid}:${e.name}`;
        open.set(key, [...(open.get(key) ?? []), e]);
      } else if (e.ph === "E") {
        const key = `${e.pid}:${e.tid}:${e.name}`;
        const b = open.get(key)?.pop();
        if (b) flat.push(interval(e.name, ms(b.ts), ms(e.ts), { ...(b.args ?? {}), endData: e.args?.endData ?? e.args }));
      }
    }
  }
  marks.sort((a, b) => a.at - b.at);
  tasks.sort((a, b) => a.start - b.start);
  loadDispatches.sort((a, b) => a - b);
  for (const at of paints.values()) at.sort((a, b) => a - b);
  for (const list of restyles.values()) list.sort((a, b) => a.at - b.at);
  return { roots: nest(flat, marks), marks, tasks, loadDispatches, paints, renders: renderTasks(threadTasks, threadRendering), restyles, animationFrames: animationFrames(frameEvents, ms) };
}

/** The rendering lifecycle's events: a task holding one rendered the frame. */
export const RENDERING = new Set(["UpdateLayoutTree", "Layout", "Paint"]);

/** A DOM or style change scheduling a frame's style or layout work, or that work done (forced, or rendering). */
export const RESTYLES = new Set(["ScheduleStyleRecalculation", "InvalidateLayout", "UpdateLayoutTree", "Layout"]);
const SCHEDULED = new Set(["ScheduleStyleRecalculation", "InvalidateLayout"]);

/** Each frame's rendering tasks: the task of the same thread around each of its rendering events, once each. */
function renderTasks(tasks: Map<string, Array<{ start: number; end: number }>>, rendering: Array<{ thread: string; frame: string; at: number }>): Map<string, Array<{ start: number; end: number }>> {
  const found = new Map<string, Set<{ start: number; end: number }>>();
  const byThread = new Map([...tasks].map(([thread, list]) => [thread, tasksByStart(list)]));
  for (const p of rendering) {
    const task = byThread.get(p.thread)?.around(p.at);
    if (!task) continue;
    const mine = found.get(p.frame);
    if (mine) mine.add(task);
    else found.set(p.frame, new Set([task]));
  }
  return new Map([...found].map(([frame, set]) => [frame, [...set].sort((a, b) => a.start - b.start)]));
}

/**
 * A thread's tasks with a search for the first one (by start) holding a moment, as a scan in start
 * order would find it, in log time: a page of a thousand images has thousands of tasks and of
 * rendering events. The running maximum of the ends rises at that task, whatever the nesting.
 */
function tasksByStart(list: Array<{ start: number; end: number }>): { around(at: number): { start: number; end: number } | undefined } {
  const sorted = [...list].sort((a, b) => a.start - b.start);
  const maxEnd: number[] = [];
  for (const [i, t] of sorted.entries()) maxEnd.push(Math.max(t.end, i ? maxEnd[i - 1]! : -Infinity));
  return {
    around(at) {
      let lo = 0;
      let hi = sorted.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if (maxEnd[mid]! >= at) hi = mid;
        else lo = mid + 1;
      }
      const task = sorted[lo];
      return task && task.start <= at ? task : undefined;
    },
  };
}

function interval(name: string, start: number, end: number, args: Record<string, any>): Interval {
  return { name, start, end, args, children: [], marks: [] };
}

/** Builds the containment forest: sort by start (longer first on ties), then a stack walk. */
function nest(flat: Interval[], marks: Mark[]): Interval[] {
  flat.sort((a, b) => a.start - b.start || b.end - a.end);
  const roots: Interval[] = [];
  const stack: Interval[] = [];
  let m = 0;
  const placeMarksUntil = (t: number) => {
    while (m < marks.length && marks[m]!.at < t) {
      const mark = marks[m++]!;
      while (stack.length && stack[stack.length - 1]!.end < mark.at) stack.pop();
      stack[stack.length - 1]?.marks.push(mark);
    }
  };
  for (const iv of flat) {
    placeMarksUntil(iv.start);
    while (stack.length && stack[stack.length - 1]!.end <= iv.start) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent && iv.end <= parent.end + 1e-6) parent.children.push(iv);
    else {
      stack.length = 0;
      roots.push(iv);
    }
    stack.push(iv);
  }
  placeMarksUntil(Infinity);
  return roots;
}
