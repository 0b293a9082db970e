/**
 * A run result in Chrome's Trace Event Format (the JSON object form), which Perfetto and
 * chrome://tracing open: one process for the run; computations on a "main thread", each request on the
 * thread of the connection it went over, the graph's fetch nodes on threads of their own; the page's
 * completion events as global instants; per-path byte totals as counters, and where the requests
 * recorded their bytes per path, each path's response bytes sent so far. Times become microseconds.
 *
 * Slices on one thread must nest, but requests multiplexed on a connection (and fetches, and any
 * computations a client overlaps) do not, so each group of slices is packed onto as many threads
 * ("lanes") as its overlaps need.
 */
import type { FrameInfo, GraphNode } from "@pagepath/graph-builder";
import type { RunResult } from "./run-result.js";
import { schedulerLabel } from "./path-shares.js";
import { pathByteCounters } from "./trace-path-counters.js";

/** What a trace needs of a graph: a full Graph fits, and so does any file with these fields. */
export interface GraphLike {
  nodes: Pick<GraphNode, "id" | "kind" | "label" | "frameId">[];
  frames?: Pick<FrameInfo, "id" | "url">[];
}

export interface TraceEvent {
  name: string;
  /** X: complete slice, B: a slice that never ended, I: instant, C: counter, M: metadata. */
  ph: "X" | "B" | "I" | "C" | "M";
  /** Microseconds since the run's start. */
  ts: number;
  dur?: number;
  pid: number;
  tid: number;
  cat?: string;
  /** Scope of an instant: g (global) or t (its thread). */
  s?: "g" | "t";
  args?: Record<string, unknown>;
}

export interface RunTrace {
  traceEvents: TraceEvent[];
  displayTimeUnit: "ms";
  metadata: Pick<RunResult, "site" | "client" | "status" | "error" | "configuration" | "run" | "seed" | "startedAt" | "versions" | "paths" | "warnings"> & {
    source: "pagepath run result";
    timeoutMs: number | null;
    /** Whether slice names are the graph's node labels (true) or node ids (false). */
    labelsFromGraph: boolean;
  };
}

const PID = 1;
type Role = "computation" | "fetch" | "marker";
const ROLE_OF_KIND: Record<GraphNode["kind"], Role> = {
  parse: "computation",
  script: "computation",
  css: "computation",
  timer: "computation",
  event: "computation",
  render: "computation",
  resource: "fetch",
  download: "fetch",
  dcl: "marker",
  load: "marker",
  fcp: "marker",
  lcp: "marker",
  preconnect: "fetch",
};

interface Slice {
  name: string;
  cat: string;
  startMs: number;
  /** null: had not ended when the run did. */
  endMs: number | null;
  args: Record<string, unknown>;
}

export function runToTrace(run: RunResult, graph?: GraphLike): RunTrace {
  const byRole = nodeSlices(run, graph);
  const threads = new Threads();
  // A marker is a moment; one a client timed with a duration is drawn as the slice it says it was.
  const moments = byRole.marker.filter((m) => m.endMs === m.startMs);
  const main = threads.group("main thread", [...byRole.computation, ...byRole.marker.filter((m) => !moments.includes(m))], true)!;
  for (const m of moments) threads.instant(m.name, m.startMs, main, "t", m.cat, m.args);
  const milestones: [string, number | null][] = [
    ["DOMContentLoaded", run.metrics.domContentLoadedMs],
    ["load", run.metrics.loadMs],
    ["graph complete", run.metrics.graphCompleteMs],
  ];
  for (const [name, ms] of milestones) if (ms !== null) threads.instant(name, ms, main, "g", "milestone");

  const requests = (run.requests ?? []).map((q, i): Slice & { connection: string | null } => ({
    name: urlTail(q.url),
    cat: "request",
    startMs: q.startMs,
    endMs: q.endMs,
    connection: q.connection,
    args: { request: i, url: q.url, nodeId: q.nodeId, status: q.status, bodyBytes: q.bodyBytes, connection: q.connection },
  }));
  for (const k of run.connections) {
    const tid = threads.group(`connection ${k.id} ${k.origin} (${k.protocol}/${k.transport})`, requests.filter((q) => q.connection === k.id), true)!;
    threads.instant("connection opened", k.openedMs, tid, "t", "connection", { id: k.id, origin: k.origin, paths: k.paths });
    if (k.closedMs !== null) threads.instant("connection closed", k.closedMs, tid, "t", "connection", { id: k.id });
  }
  const known = new Set(run.connections.map((k) => k.id));
  threads.group("network", requests.filter((q) => q.connection === null || !known.has(q.connection)), false);
  threads.group("fetch nodes", byRole.fetch, false);

  const endMs = runEndMs(run);
  for (const p of run.paths) {
    const totals = Object.fromEntries(Object.entries({ up: p.bytesUp, down: p.bytesDown }).filter(([, v]) => v !== null));
    // The totals are known only once the run is over, so that is where the sample goes.
    if (Object.keys(totals).length > 0) threads.events.push({ name: `path ${p.path} bytes (run total)`, ph: "C", ts: us(endMs), pid: PID, tid: 0, cat: "bytes", args: totals });
  }
  threads.events.push(...pathByteCounters(run, PID, us));
  return {
    traceEvents: [...processMetadata(run), ...threads.metadata, ...threads.events.sort((a, b) => a.ts - b.ts)],
    displayTimeUnit: "ms",
    metadata: {
      source: "pagepath run result",
      site: run.site,
      client: run.client,
      status: run.status,
      error: run.error,
      timeoutMs: run.timeoutMs ?? null,
      configuration: run.configuration,
      run: run.run,
      seed: run.seed,
      startedAt: run.startedAt,
      versions: run.versions,
      paths: run.paths,
      warnings: run.warnings,
      labelsFromGraph: graph !== undefined,
    },
  };
}

/** The run's node timings as slices, by what the node is. */
function nodeSlices(run: RunResult, graph: GraphLike | undefined): Record<Role, Slice[]> {
  const nodes = new Map((graph?.nodes ?? []).map((n) => [n.id, n]));
  const frameUrls = new Map((graph?.frames ?? []).map((f) => [f.id, f.url]));
  const requested = new Set((run.requests ?? []).flatMap((q) => (q.nodeId === null ? [] : [q.nodeId])));
  const byRole: Record<Role, Slice[]> = { computation: [], fetch: [], marker: [] };
  for (const t of run.nodeTimings ?? []) {
    const node = nodes.get(t.nodeId);
    // Without the graph a node's kind is unknown: a node the client fetched for is a fetch, the rest computations.
    const role = node ? ROLE_OF_KIND[node.kind] : requested.has(t.nodeId) ? "fetch" : "computation";
    const args: Record<string, unknown> = { nodeId: t.nodeId };
    if (node) Object.assign(args, { kind: node.kind, frame: frameUrls.get(node.frameId) ?? node.frameId });
    byRole[role].push({ name: node?.label ?? t.nodeId, cat: role, startMs: t.start, endMs: t.end, args });
  }
  return byRole;
}

function processMetadata(run: RunResult): TraceEvent[] {
  const c = run.configuration;
  const labels = [`${c.protocol}${c.http1 ? ` ${c.http1}` : ""}/${c.transport}`, `network ${c.network.name}`, `${c.serverModel} server`, `priority ${c.priority}`, ...(c.scheduler ? [`scheduler ${schedulerLabel(c.scheduler)}`] : []), `seed ${run.seed}`, run.status === "ok" ? "ok" : `${run.status}: ${run.error}`];
  return [
    { name: "process_name", ph: "M", ts: 0, pid: PID, tid: 0, args: { name: `pagepath run ${run.site.name} (${run.client})` } },
    { name: "process_labels", ph: "M", ts: 0, pid: PID, tid: 0, args: { labels: labels.join(", ") } },
  ];
}

/** Threads numbered in the order they are made, so the output is the same for the same input. */
class Threads {
  readonly metadata: TraceEvent[] = [];
  readonly events: TraceEvent[] = [];
  private lastTid = 0;

  /** Puts slices on the fewest threads named `name`, `name (2)`, ...; returns the first one's tid. */
  group(name: string, slices: Slice[], always: boolean): number | undefined {
    const laneEnds: number[] = [];
    const tids: number[] = [];
    const open = () => {
      tids.push(this.thread(tids.length === 0 ? name : `${name} (${tids.length + 1})`));
      laneEnds.push(-Infinity);
    };
    if (always) open();
    const ordered = [...slices].sort((a, b) => a.startMs - b.startMs);
    for (const s of ordered) {
      let lane = laneEnds.findIndex((end) => end <= s.startMs);
      if (lane < 0) {
        lane = laneEnds.length;
        open();
      }
      laneEnds[lane] = s.endMs ?? Infinity;
      const ts = us(s.startMs);
      const where = { pid: PID, tid: tids[lane]!, cat: s.cat, args: s.args };
      // A slice without an end is left open: the viewers draw it as one that did not finish.
      this.events.push(s.endMs === null ? { name: s.name, ph: "B", ts, ...where } : { name: s.name, ph: "X", ts, dur: us(s.endMs - s.startMs), ...where });
    }
    return tids[0];
  }

  instant(name: string, ms: number, tid: number, scope: "g" | "t", cat: string, args?: Record<string, unknown>): void {
    this.events.push({ name, ph: "I", ts: us(ms), pid: PID, tid, s: scope, cat, ...(args ? { args } : {}) });
  }

  private thread(name: string): number {
    const tid = ++this.lastTid;
    this.metadata.push({ name: "thread_name", ph: "M", ts: 0, pid: PID, tid, args: { name } }, { name: "thread_sort_index", ph: "M", ts: 0, pid: PID, tid, args: { sort_index: tid } });
    return tid;
  }
}

/** ms to µs, rounded to the nanosecond so that 310.2 ms is 310200 µs and not 310200.00000000006. */
function us(ms: number): number {
  return Math.round(ms * 1e6) / 1e3;
}

/** The last moment the run says anything about: where open slices and run totals belong. */
function runEndMs(run: RunResult): number {
  const m = run.metrics;
  const times = [
    m.domContentLoadedMs,
    m.loadMs,
    m.graphCompleteMs,
    ...(run.nodeTimings ?? []).map((t) => t.end),
    ...(run.requests ?? []).flatMap((q) => [q.startMs, q.endMs]),
    ...run.connections.flatMap((k) => [k.openedMs, k.closedMs]),
  ];
  return Math.max(0, ...times.filter((t): t is number => t !== null));
}

/** A request's name: the last segment of its URL's path and its query ("app.js?v=2"), or host/ for a root. */
export function urlTail(url: string): string {
  let tail: string;
  try {
    const u = new URL(url);
    const segment = u.pathname.split("/").filter((s) => s !== "").at(-1);
    tail = u.protocol === "data:" ? url : segment === undefined ? `${u.host}/${u.search}` : `${segment}${u.search}`;
  } catch {
    tail = url;
  }
  return tail.length > 80 ? `${tail.slice(0, 79)}…` : tail;
}
