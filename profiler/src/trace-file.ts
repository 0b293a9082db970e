/**
 * trace.json as pagepath writes it: Chrome's trace-event JSON, `{"traceEvents":[...]}`, with one
 * event per line, each starting with its `name`, `ph`, `pid` and `tid` (docs/formats/recording.md,
 * trace.json). Any JSON reader reads it whole; a reader that wants a few kinds of event reads
 * those lines alone: most of a trace is other threads' tasks, and parsing them is most of the time
 * a graph build takes.
 */

import { parseJson, RecordingError } from "./recording-error.js";

/** Which events a selective reader keeps, by event name and the name of the thread it ran on. */
export interface TraceSelection {
  /** Every name it may want: lines of other names are passed over unread. */
  names: ReadonlySet<string>;
  /** `thread` is the thread's name from the trace's `thread_name` metadata, if it has one. */
  wants(name: string, thread: string | undefined): boolean;
}

const HEAD = '{"traceEvents":[';
const TAIL = "]}";

/** The file's text for `events`. */
export function traceFileText(events: unknown[]): string {
  const lines = events.map((e) => {
    const { name, ph, pid, tid } = e as Record<string, unknown>;
    // Spread after the leading keys: those stay first, at their new place, and are not repeated.
    return JSON.stringify({ name, ph, pid, tid, ...(e as object) });
  });
  return lines.length ? `${HEAD}\n${lines.join(",\n")}\n${TAIL}` : `${HEAD}\n${TAIL}`;
}

/**
 * The events of trace.json's text: those `select` wants (and every `thread_name` metadata event)
 * when the file is laid out a line per event, else all of them. Throws with the line that is not
 * valid JSON. The lines are read in place, without splitting the text or a regular expression:
 * there are a hundred thousand of them, and this is what makes a selective read cheap.
 */
export function traceEvents(text: string, where: string, select?: TraceSelection): unknown[] {
  if (!select || !text.startsWith(`${HEAD}\n`) || !text.endsWith(`\n${TAIL}`)) {
    const whole = parseJson(where, text) as { traceEvents?: unknown };
    if (!whole || typeof whole !== "object" || !Array.isArray(whole.traceEvents)) throw new RecordingError(where, "/traceEvents: must be an array of trace events");
    return whole.traceEvents;
  }
  const lines = new TraceLines(text, where);
  // Thread names first: they say which thread each event ran on.
  const threads = new Map<number, string>();
  for (let at = text.indexOf(THREAD_NAME); at >= 0; at = text.indexOf(THREAD_NAME, at + 1)) {
    if (text.charCodeAt(at - 1) !== 10) continue;
    const e = lines.parseAt(at) as { pid?: unknown; tid?: unknown; args?: { name?: unknown } };
    if (typeof e.pid === "number" && typeof e.tid === "number" && typeof e.args?.name === "string") threads.set(threadKey(e.pid, e.tid), e.args.name);
  }
  const events: unknown[] = [];
  for (let at = HEAD.length + 1; at < text.length - TAIL.length; at = lines.next(at)) {
    const head = lines.head(at, select.names);
    // A line not laid out as traceFileText writes them is read whole and kept, whatever it is.
    if (head === null || head.name === "thread_name" || (head.thread !== undefined && select.wants(head.name, threads.get(head.thread)))) events.push(lines.parseAt(at));
  }
  return events;
}

const THREAD_NAME = '{"name":"thread_name",';

function threadKey(pid: number, tid: number): number {
  return pid * 2 ** 24 + tid;
}

/** The event lines of one trace text, addressed by where each starts. */
class TraceLines {
  constructor(
    private readonly text: string,
    private readonly where: string,
  ) {}

  /** Where the line after the one at `at` starts. */
  next(at: number): number {
    const nl = this.text.indexOf("\n", at);
    return nl < 0 ? this.text.length : nl + 1;
  }

  parseAt(at: number): unknown {
    const nl = this.text.indexOf("\n", at);
    const end = this.text.charCodeAt(nl - 1) === 44 ? nl - 1 : nl;
    const line = this.text.slice(at, end);
    try {
      return JSON.parse(line);
    } catch {
      // The line number costs a scan of the text up to it: only for the error.
      return parseJson(`${this.where}:${lineNumber(this.text, at)}`, line);
    }
  }

  /**
   * The event's name and its thread's key, read in place; the thread only for a name in `names`
   * (undefined otherwise). Null when the line does not start as traceFileText writes it.
   */
  head(at: number, names: ReadonlySet<string>): { name: string; thread: number | undefined } | null {
    const t = this.text;
    if (!t.startsWith('{"name":"', at)) return null;
    const nameEnd = t.indexOf('"', at + 9);
    if (nameEnd < 0) return null;
    const name = t.slice(at + 9, nameEnd);
    // An escape: the name is not what the raw text says (and a quote in it ends it early).
    if (name.includes("\\")) return null;
    if (!names.has(name)) return { name, thread: undefined };
    if (!t.startsWith(',"ph":"', nameEnd + 1)) return null;
    const phEnd = t.indexOf('"', nameEnd + 8);
    if (phEnd < 0 || !t.startsWith(',"pid":', phEnd + 1)) return null;
    const [pid, pidEnd] = integerAt(t, phEnd + 8);
    if (pidEnd === phEnd + 8 || !t.startsWith(',"tid":', pidEnd)) return null;
    const [tid, tidEnd] = integerAt(t, pidEnd + 7);
    if (tidEnd === pidEnd + 7) return null;
    return { name, thread: threadKey(pid, tid) };
  }
}

/** The decimal integer at `from`, and where it ends. */
function integerAt(text: string, from: number): [number, number] {
  let value = 0;
  let i = from;
  for (let c = text.charCodeAt(i); c >= 48 && c <= 57; c = text.charCodeAt(++i)) value = value * 10 + (c - 48);
  return [value, i];
}

/** The 1-based line number of the line starting at `at`, for an error message. */
function lineNumber(text: string, at: number): number {
  let n = 1;
  for (let i = text.indexOf("\n"); i >= 0 && i < at; i = text.indexOf("\n", i + 1)) n++;
  return n;
}
