import type { AnimationFrame } from "./animation-frames.js";
import type { Restyle } from "./trace-intervals.js";
import type { ArchiveEntry, CdpEvent, RecordingManifest } from "@pagepath/profiler";
import type { Activity, Segment } from "./activities.js";
import type { Draft } from "./draft.js";
import type { GraphNode } from "./graph.js";
import type { ImportMap } from "./module-imports.js";
import type { PreconnectTag, ScriptTag } from "./html-scripts.js";
import { sameUrl } from "./url-key.js";

/** One HTML document loaded into a frame, with the nodes built for it. */
export interface DocumentState {
  frameId: string;
  url: string;
  requestId: string;
  entries: ArchiveEntry[];
  body: Buffer | null;
  scripts: ScriptTag[];
  /** URLs its `<link rel=prefetch>` tags name. */
  prefetches: string[];
  /** Its `<link rel=preconnect>` tags. */
  preconnects: PreconnectTag[];
  /** Its `<img loading=lazy>` tags. */
  lazyImages: { src: string; line: number }[];
  /** Its `<script type="importmap">`: how its modules' bare specifiers resolve. */
  importMap: ImportMap;
  chunks: GraphNode[];
  parses: GraphNode[];
}

export interface FrameState {
  id: string;
  parentId: string | null;
  url: string;
  docs: DocumentState[];
  dcl?: GraphNode;
  load?: GraphNode;
  recordedDcl: number | null;
  recordedLoad: number | null;
}

/** Everything the builder's steps share: the recording, the draft graph and the indexes into it. */
export interface BuildContext {
  manifest: RecordingManifest;
  events: CdpEvent[];
  archive: ArchiveEntry[];
  draft: Draft;
  /** Monotonic seconds -> ms since navigation start. */
  ms(monotonicS: number): number;
  mainFrameId: string;
  frames: Map<string, FrameState>;
  /** Node of each segment; first and last node of each activity (nested ones included). */
  segmentNode: Map<Segment, GraphNode>;
  first: Map<Activity, GraphNode>;
  last: Map<Activity, GraphNode>;
  /** Resource node per CDP requestId (redirect chains share one). */
  resourceByRequest: Map<string, GraphNode>;
  /** URL of the script a computation node runs (timers and events: their handler's). */
  callUrl: Map<GraphNode, string>;
  /** When the trace marked each frame's load events (MarkLoad), ms, one per document loaded. */
  markLoad: Map<string, number[]>;
  /** The renderer main thread's tasks (RunTask), sorted by start; empty in traces without them. */
  tasks: Array<{ start: number; end: number }>;
  /** When each load event dispatch began on that thread, sorted. */
  loadDispatches: number[];
  /** When the renderer painted the main frame (trace `Paint` events), sorted; empty without a trace. */
  mainPaints: number[];
  /** The main thread's tasks that painted the main frame, sorted (trace-intervals.ts `renders`). */
  mainRenders: Array<{ start: number; end: number }>;
  /** When the main frame's style or layout was invalidated or updated (trace-intervals.ts `restyles`), sorted. */
  mainRestyles: Restyle[];
  /** The renderer main threads' animation frames, sorted by start; empty in traces without them. */
  animationFrames: AnimationFrame[];
  /** URLs compiled as ES modules (urlKey), from the trace. */
  moduleUrls: Set<string>;
  /** URLs of dedicated workers' scripts (urlKey), from the trace (workers.ts). */
  workerUrls: Set<string>;
  /** Module resource id -> the module resources it imports statically (the module-import edges). */
  moduleImports: Map<string, string[]>;
  /** How many module evaluations each frame has had so far (they carry no URL in the trace). */
  modulesSeen: Map<string, number>;
  /** Computation nodes (all kinds but resource/download/markers), sorted by start. */
  computations: GraphNode[];
}

/** The latest computation node matching pred that started at or before t. */
export function latestBefore(ctx: BuildContext, t: number, pred: (n: GraphNode) => boolean): GraphNode | undefined {
  let best: GraphNode | undefined;
  for (const n of ctx.computations) {
    if (n.start > t) break;
    if (pred(n)) best = n;
  }
  return best;
}

/** The resource matching pred that finished latest at or before t. */
export function latestFinished(ctx: BuildContext, t: number, pred: (r: GraphNode) => boolean): GraphNode | undefined {
  let best: GraphNode | undefined;
  for (const r of ctx.resourceByRequest.values()) {
    if (r.end <= t + 1e-6 && pred(r) && (!best || r.end > best.end)) best = r;
  }
  return best;
}

export function docOf(ctx: BuildContext, frameId: string, url: string): DocumentState | undefined {
  const f = ctx.frames.get(frameId);
  return f?.docs.find((d) => sameUrl(d.url, url)) ?? f?.docs[f.docs.length - 1];
}

/** The download chunk whose bytes end at or after `offset`: what a reader of that offset waits for. */
/** The parse chunk that parsed the document's 0-based `line`, else the first after it, else the last; undefined without parse chunks. */
export function parseChunkAt(doc: DocumentState, line: number): GraphNode | undefined {
  return (
    doc.parses.find((p) => (p.parse!.startLine ?? 0) <= line && line <= (p.parse!.endLine ?? Infinity)) ??
    doc.parses.find((p) => (p.parse!.startLine ?? 0) >= line) ??
    doc.parses.at(-1)
  );
}

export function chunkHolding(doc: DocumentState, offset: number): GraphNode | undefined {
  return doc.chunks.find((c) => c.chunk!.offset + c.chunk!.bytes >= offset) ?? doc.chunks.at(-1);
}

export function urlTail(url: string): string {
  try {
    const u = new URL(url);
    const last = u.pathname.split("/").filter(Boolean).pop() ?? u.hostname;
    return last + (u.search.length > 1 ? u.search.slice(0, 20) : "");
  } catch {
    return url.slice(0, 40);
  }
}
