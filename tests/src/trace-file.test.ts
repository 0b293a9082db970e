import assert from "node:assert/strict";
import { describe, it } from "node:test";
import fc from "fast-check";
import { RecordingError, traceEvents, traceFileText, type TraceSelection } from "@pagepath/profiler";

/** A trace event as Chrome writes them: args first, any of the leading keys possibly missing. */
const event = fc.record(
  {
    args: fc.dictionary(fc.string({ maxLength: 6 }), fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), { noNullPrototype: true }),
    cat: fc.constantFrom("devtools.timeline", "toplevel", "__metadata"),
    name: fc.oneof(fc.constantFrom("RunTask", "ParseHTML", "Paint", "v8.compileModule", "thread_name"), fc.string({ maxLength: 10 })),
    ph: fc.constantFrom("X", "B", "E", "I", "M"),
    pid: fc.integer({ min: 0, max: 99_999 }),
    tid: fc.integer({ min: 0, max: 4_000_000 }),
    ts: fc.nat(),
  },
  { requiredKeys: ["ts"], noNullPrototype: true },
);
/** Thread names, as the metadata gives them, for some of the threads the events ran on. */
const threadName = fc.record({ name: fc.constant("thread_name"), ph: fc.constant("M"), pid: fc.integer({ min: 0, max: 3 }), tid: fc.integer({ min: 0, max: 3 }), args: fc.record({ name: fc.constantFrom("CrRendererMain", "Compositor", "ThreadPoolForegroundWorker") }, { noNullPrototype: true }) }, { noNullPrototype: true });

/** Keeps RunTask and Paint on the renderer main thread, v8.compileModule anywhere. */
const SELECTION: TraceSelection = {
  names: new Set(["RunTask", "Paint", "v8.compileModule"]),
  wants: (name, thread) => name === "v8.compileModule" || (thread === "CrRendererMain" && (name === "RunTask" || name === "Paint")),
};

/**
 * What a selective read must return: every thread name, every event whose name cannot be read
 * without parsing (none, or one JSON escapes) and every event of a wanted name that lacks the
 * keys telling its thread; of the rest, those the selection wants on their thread.
 */
function expected(events: any[]): any[] {
  const threads = new Map<string, string>();
  for (const e of events) if (e.name === "thread_name" && typeof e.args?.name === "string") threads.set(`${e.pid}:${e.tid}`, e.args.name);
  const plainName = (e: any) => typeof e.name === "string" && JSON.stringify(e.name) === `"${e.name}"`;
  const threadKnown = (e: any) => e.ph !== undefined && e.pid !== undefined && e.tid !== undefined;
  return events.filter((e) => {
    if (!plainName(e) || e.name === "thread_name") return true;
    if (!SELECTION.names.has(e.name)) return false;
    return !threadKnown(e) || SELECTION.wants(e.name, threads.get(`${e.pid}:${e.tid}`));
  });
}

describe("trace.json, a line per event", () => {
  it("is Chrome's trace JSON: a reader of the whole file gets every event back", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(event, threadName), { maxLength: 30 }), (events) => {
        assert.deepEqual(JSON.parse(traceFileText(events)).traceEvents, events);
        assert.deepEqual(traceEvents(traceFileText(events), "trace.json"), events);
      }),
    );
  });

  it("read selectively, gives exactly the events the selection wants on the threads it names, in order", () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(event, event, threadName), { maxLength: 40 }), (events) => {
        assert.deepEqual(traceEvents(traceFileText(events), "trace.json", SELECTION), expected(events));
      }),
      { numRuns: 300 },
    );
  });

  it("reads a trace written on one line (older recordings) whole, selection or not", () => {
    const events = [{ name: "RunTask", ph: "X", pid: 1, tid: 1, ts: 0 }, { name: "Other", ph: "X", pid: 1, tid: 1, ts: 1 }];
    assert.deepEqual(traceEvents(JSON.stringify({ traceEvents: events }), "trace.json", SELECTION), events);
  });

  it("names the file and line of an event that is not JSON", () => {
    const text = traceFileText([{ name: "RunTask", ph: "X", pid: 1, tid: 1, ts: 0 }, { name: "RunTask", ph: "X", pid: 1, tid: 1, ts: 1 }]).replace('"ts":1}', '"ts":1');
    const wantsAll: TraceSelection = { names: new Set(["RunTask"]), wants: () => true };
    assert.throws(() => traceEvents(text, "rec/trace.json", wantsAll), (e: unknown) => e instanceof RecordingError && /^rec\/trace\.json:3: not valid JSON/.test((e as Error).message));
    assert.throws(() => traceEvents('{"traceEvents":{}}', "rec/trace.json"), /rec\/trace\.json: \/traceEvents: must be an array of trace events/);
  });
});
