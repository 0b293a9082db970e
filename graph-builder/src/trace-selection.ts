import type { TraceSelection } from "@pagepath/profiler";
import { ANIMATION_FRAME_EVENTS } from "./animation-frames.js";
import { INTERVALS, MAIN_THREAD, MARKS, RENDERING, RESTYLES } from "./trace-intervals.js";

/**
 * The trace events the builder reads, so that loading a recording parses those alone: the renderer
 * main thread's activities, marks, tasks, rendering (mainThreadTrace) and animation frames, and on any thread the
 * module compilations and worker sessions (moduleUrls, workerUrls). On a page of 1,241 resources
 * that is 12% of the trace's 115,000 events; most of the rest are other threads' tasks. A name read
 * by the builder but missing here would be missed silently: tests/src/trace-selection.test.ts
 * builds the fixture pages both ways and requires the same graphs.
 */
const MAIN_THREAD_NAMES = new Set([...INTERVALS, ...MARKS, ...RENDERING, ...RESTYLES, ...ANIMATION_FRAME_EVENTS, "RunTask", "EventDispatch"]);
const ANY_THREAD_NAMES = new Set(["v8.compileModule", "TracingSessionIdForWorker"]);

export const BUILDER_TRACE: TraceSelection = {
  names: new Set([...MAIN_THREAD_NAMES, ...ANY_THREAD_NAMES]),
  wants: (name, thread) => ANY_THREAD_NAMES.has(name) || (thread === MAIN_THREAD && MAIN_THREAD_NAMES.has(name)),
};
