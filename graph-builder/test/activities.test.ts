import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { findActivities, isSegment, type Activity } from "../src/activities.js";
import { mainThreadTrace } from "../src/trace-intervals.js";

// A hand-made trace on one renderer main thread; times in µs, navigation start at 1 s.
const T0 = 1_000_000;
const ev = (name: string, ts: number, dur: number | null, args: Record<string, unknown> = {}) => ({
  name, ph: dur === null ? "I" : "X", ts: T0 + ts, ...(dur === null ? {} : { dur }), pid: 1, tid: 7, args,
});
const trace = [
  { name: "thread_name", ph: "M", ts: 0, pid: 1, tid: 7, args: { name: "CrRendererMain" } },
  { name: "thread_name", ph: "M", ts: 0, pid: 1, tid: 9, args: { name: "Compositor" } },
  // Parsing, which requests an image, runs an inline script (which sets a timer), and goes on.
  ev("ParseHTML", 1000, 5000, { beginData: { url: "https://a.test/", frame: "F", startLine: 0 }, endData: { endLine: 30 } }),
  ev("ResourceSendRequest", 1500, null, { data: { requestId: "r1", frame: "F" } }),
  ev("EvaluateScript", 2000, 1000, { data: { url: "https://a.test/", lineNumber: 5, frame: "F" } }),
  ev("TimerInstall", 2500, null, { data: { timerId: 3, timeout: 10, frame: "F" } }),
  // An event nobody listens to, and one with a handler.
  ev("EventDispatch", 7000, 10, { data: { type: "readystatechange" } }),
  ev("EventDispatch", 8000, 500, { data: { type: "load" } }),
  ev("FunctionCall", 8100, 300, { data: { functionName: "onload", url: "https://a.test/", frame: "F" } }),
  // A timer whose callback fetches; a compositor-thread event that must be ignored.
  ev("TimerFire", 12000, 400, { data: { timerId: 3, frame: "F" } }),
  ev("FunctionCall", 12050, 300, { data: { functionName: "tick", url: "https://a.test/", frame: "F" } }),
  ev("ResourceSendRequest", 12200, null, { data: { requestId: "r2", frame: "F" } }),
  { ...ev("ParseHTML", 20000, 100, { beginData: { url: "https://a.test/", frame: "F" } }), tid: 9 },
];

describe("activities from the trace's main thread", () => {
  const { activities } = findActivities(mainThreadTrace(trace, 1));
  const kinds = (as: Activity[]) => as.map((a) => a.kind);

  it("finds parse, the nested script, the handled event and the timer, and nothing from other threads", () => {
    assert.deepEqual(kinds(activities), ["parse", "script", "event", "timer"]);
    assert.equal(activities[1]!.parent, activities[0]);
  });

  it("cuts the parse chunk at its request and around the nested script, in ms since navigation start", () => {
    const parse = activities[0]!;
    const shape = parse.pieces.map((p) => (isSegment(p) ? `seg ${p.start}-${p.end} req[${p.requests}] timers[${p.timers}]` : `child ${p.kind}`));
    assert.deepEqual(shape, ["seg 1-1.5 req[r1] timers[]", "seg 1.5-2 req[] timers[]", "child script", "seg 3-6 req[] timers[]"]);
    const script = activities[1]!;
    assert.deepEqual(script.pieces.map((p) => isSegment(p) && p.timers), [[3]]);
  });

  it("gives the timer's request to the timer, found inside its callback", () => {
    const timer = activities[3]!;
    assert.deepEqual(timer.pieces.filter(isSegment).flatMap((p) => p.requests), ["r2"]);
    assert.equal(timer.frameId, "F");
    assert.equal(activities[2]!.frameId, "F", "an event's frame comes from its handler");
  });
});
