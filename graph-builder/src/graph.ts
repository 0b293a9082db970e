/**
 * The dependency graph format (DESIGN.md contract 2), as TypeScript types. The JSON Schema is
 * formats/schema/graph.schema.json and the written description docs/formats/graph.md; bump
 * GRAPH_SCHEMA_VERSION on any incompatible change. Read by the viewer and the emulated browser.
 *
 * All times are ms since navigation start (the main document's request); durations are ms.
 */
import type { RequestPhases as ResourcePhases } from "@pagepath/profiler";

export const GRAPH_SCHEMA_VERSION = 1;

export type NodeKind =
  | "download" // a chunk of an HTML document's bytes arriving (Table 3.1 DownloadChunk)
  | "parse" // a chunk of HTML parsing, split at tags that fetch or run scripts
  | "resource" // a network fetch of anything but an HTML document (or a cache hit)
  | "script" // JavaScript evaluation (inline, external, callbacks), possibly one segment of it
  | "css" // style sheet parsing and evaluation
  | "timer" // a timer firing and its callback
  | "event" // an event handler running
  | "dcl" // DOMContentLoaded completion marker of a frame (zero duration)
  | "load" // load completion marker of a frame (zero duration)
  | "render" // the main frame's rendering in one task: style, layout, paint
  | "fcp" // the main frame's first contentful paint (zero duration)
  | "lcp" // the main frame's largest contentful paint (zero duration)
  | "preconnect"; // a connection opened ahead of any request, for a <link rel=preconnect> (zero duration)

export type ScriptType = "inline" | "sync" | "async" | "defer" | "module" | "callback";

/** Why a node is left out of the emulated graph (it stays in the file). null: emulated. */
export type Exclusion = null | "after-load" | "long-timer" | "descendant-of-excluded";

export interface GraphNode {
  id: string;
  kind: NodeKind;
  frameId: string;
  /** Human label: URL tail, event type, "parse index.html L12-L40" ... */
  label: string;
  /** Recorded start and end, ms since navigation start. */
  start: number;
  end: number;
  /** Time the node itself takes in the emulator: computation time for parse/script/css/timer/event, 0 for markers; for resources and downloads the recorded end - start. */
  duration: number;
  excluded: Exclusion;
  /** Present when kind is "resource" or "download". */
  resource?: ResourceInfo;
  /** kind "download": which chunk of the document, byte range. */
  chunk?: { index: number; offset: number; bytes: number; last: boolean };
  /** kind "parse": document URL and line range parsed; chunk index within the frame. */
  parse?: {
    url: string;
    startLine: number | null;
    endLine: number | null;
    index: number;
    last: boolean;
    /** The parser reached the document's <body> in this chunk (one chunk per document); absent in older graphs. */
    bodyReached?: boolean;
    /**
     * On the chunk that reached <body>: where in the document's bytes the parser got there (the end
     * of the <body> tag, or of </head>), which it reaches as those bytes arrive, before the rest of
     * the chunk's; absent when the document has neither tag, and in older graphs.
     */
    bodyByte?: number;
  };
  /** kind "script": what ran. segment > 0 for continuations of a re-entrant computation. */
  script?: { url: string; type: ScriptType; line: number | null; segment: number };
  /** kind "css". */
  css?: { url: string; segment: number };
  /** kind "timer". */
  timer?: { timerId: number; timeoutMs: number; singleShot: boolean; fire: number; segment: number };
  /** kind "event": DOM event type and what it targets as far as the trace tells. */
  event?: { type: string; target: "document" | "window" | "element" | "xhr" | "message" | "other"; segment: number };
  /**
   * kind "fcp", when the document's first content is images only: the images asked for by the
   * first paint, of which the first to arrive makes the first contentful paint. Absent otherwise.
   */
  fcp?: { firstImages: string[] };
  /** kind "lcp": what the largest contentful paint painted; null when the recording does not say. */
  lcp?: LcpElement | null;
  /** kind "preconnect": the origin a connection is opened to, and whether without credentials (`crossorigin`), as the pools Chromium keeps apart. */
  preconnect?: { origin: string; privacyMode: boolean };
  priority?: Priorities;
}

/** The element of a largest contentful paint, as the recording's trace names it. */
export interface LcpElement {
  type: "image" | "text";
  /** The DOM node as Chromium names it: `IMG`, `P`, `DIV class='banner'`. */
  nodeName: string;
  /** The image's URL (an <img> or a CSS background); null for text. */
  url: string | null;
  /** Painted area, CSS pixels. */
  size: number;
  /** Text only: the element's computed font (`family` list, `weight`, `style`), or null when it could not be read; absent in older recordings. */
  font?: { family: string; weight: string; style: string } | null;
}

export interface ResourceInfo {
  url: string;
  origin: string;
  method: string;
  mimeType: string;
  resourceType: string;
  status: number | null;
  protocol: string | null;
  /**
   * The connection the response came over; null when none did (cache hits, data: URLs) or the
   * recording does not say. Always written by the builder, absent in graphs made before it was.
   */
  connection?: ConnectionInfo | null;
  /**
   * Sent without credentials to another origin (a CORS-mode fetch: fonts, cross-origin modules,
   * `fetch()`): Chromium puts such requests on connections apart from the origin's credentialed
   * ones (privacy mode). Absent in graphs made before it was recorded: false.
   */
  privacyMode?: boolean;
  /** Ids of the archive entries (recording) this node stands for, redirect hops first. */
  archiveIds: string[];
  redirects: string[];
  /** Bytes of body (decoded) and bytes on the wire. */
  bodySize: number;
  transferSize: number;
  serverDelayMs: number | null;
  fromCache: "memory" | "disk" | "prefetch" | "service-worker" | null;
  /**
   * Requested by the preload scanner before the parser reached its tag: besides its R1 edge from
   * that parse chunk it has a "preload" edge from the download chunk then arrived, and it is ready
   * as soon as that one is (whichever comes first; critical paths take the preload edge).
   */
  preloaded: boolean;
  /** A CSS-referenced resource fetched only when an element used it (lazy binding, seed 001 §3.7.5). */
  lazyBound: boolean;
  /** The request initiator as recorded. */
  initiatorType: string;
  initiatorUrl: string | null;
  priority: string | null;
  /**
   * The priority the request was made with (`priority` is the last one Chrome gave it: an image
   * laid out in the viewport is raised, Low to High); absent in graphs made before the field.
   */
  initialPriority?: string | null;
  /**
   * An image of the main frame that the final layout drew in the viewport: Chromium raises it to
   * High at a layout that places it while it loads, whatever the recording shows. Absent when not.
   */
  inViewport?: boolean;
  /** Made by a `<link rel=preload>` (CDP's `isLinkPreload`): Chromium's renderer-side scheduler does not hold it. Absent when not. */
  linkPreload?: boolean;
  /**
   * When Chromium's network service took the final hop up (ResourceTiming's `requestTime`), ms
   * since navigation start; null without timing. Absent in graphs made before the field.
   */
  networkStartMs?: number | null;
  /**
   * The final hop's phases from its ResourceTiming, ms since navigation start, laid end to end (see
   * graph.md); null when the recording has no timing for it. Absent in graphs made before the field.
   */
  phases?: ResourcePhases | null;
}

/** DevTools' waterfall phases of one fetch, in order (the profiler's RequestPhases); null: no such phase. */
export type { PhaseSpan, RequestPhases as ResourcePhases } from "@pagepath/profiler";

/**
 * Chromium's id of a connection is shared by every request it carries: with HTTP/2 and HTTP/3 all
 * of an origin's fetches in one credentials mode, and other origins' that Chromium pools onto it
 * (same address, certificate valid for both).
 */
export interface ConnectionInfo {
  id: number;
  /** The request went over a connection opened earlier; null if the recording does not say. */
  reused: boolean | null;
  /** The server's "ip:port" as the browser saw it (after host-resolver mapping). */
  remoteAddress: string | null;
}

export interface Priorities {
  /** Algorithm 1: longest path (ms) from this node to a leaf of the emulated graph, itself included. */
  criticalPathWeight: number;
  /** Algorithm 2: global resource order, 0 = most urgent; resources only. */
  criticalPathRank: number | null;
  /** HTML > CSS > JS > images > other: 0..4. */
  mimeRank: number | null;
  /** Depth-based priority (resources weigh 1, everything else 0): longest resource count to a leaf. */
  depthWeight: number;
  depthRank: number | null;
}

export interface GraphEdge {
  from: string;
  to: string;
  /** The rule that made it: "R1".."R25" of Table 3.1, or a named rule (see RULES). */
  rule: string;
  /** observed: the recording says so (initiator, trace nesting); inferred: a model rule added it. */
  how: "observed" | "inferred";
}

export interface FrameInfo {
  id: string;
  parentId: string | null;
  url: string;
  /** Node ids of the frame's first and last download chunks, DOMContentLoaded and load markers. */
  firstDownload: string | null;
  lastDownload: string | null;
  dcl: string;
  load: string;
  /** The frame started loading before the main frame's load event, so it is emulated whole. */
  beforeLoad: boolean;
  /** Its document is of another site (scheme and registrable domain) than the main frame's: Chromium keeps its requests on connections apart (network state partitioning). Absent in older graphs: false. */
  crossSite?: boolean;
}

export interface CriticalPath {
  /** Node ids from the root to the main frame's load marker. */
  nodes: string[];
  totalMs: number;
  breakdown: { network: number; script: number; parse: number; css: number; other: number };
}

export interface Graph {
  schemaVersion: number;
  kind: "pagepath-graph";
  tool: { name: "pagepath"; version: string };
  source: { recording: string; url: string; status: "complete" | "incomplete"; browser: string };
  /** "full": built from network log and trace; "network-only": the trace was missing. */
  mode: "full" | "network-only";
  root: string;
  mainFrame: string;
  frames: FrameInfo[];
  nodes: GraphNode[];
  edges: GraphEdge[];
  criticalPath: CriticalPath;
  /**
   * Recorded completion and paint times of the main frame. The paint fields are always written
   * and absent in graphs made before them; largestContentfulPaintMissing says why
   * largestContentfulPaint is null (null when it has a value).
   */
  recorded: {
    domContentLoaded: number | null;
    load: number | null;
    firstContentfulPaint?: number | null;
    largestContentfulPaint?: number | null;
    largestContentfulPaintMissing?: string | null;
  };
  /**
   * The main frame's largest contentful paint candidates, from the recording's layout
   * (lcp-candidates.ts); absent when the recording has none (made before it, or imported).
   */
  lcpCandidates?: LcpCandidate[];
  /** Things the builder noticed and handled: broken cycles, unattributed requests, fallbacks. */
  warnings: string[];
}

/**
 * An element the largest contentful paint may name. It paints in the first frame after its first
 * `sizes` chunk and its `waitsFor` are done (the recorded element: when the `lcp` marker does), at
 * the size of the last `sizes` entry whose chunk was done when that frame began.
 */
export interface LcpCandidate {
  type: "image" | "text";
  /** As Chromium names the node: `IMG`, `BODY`, `P class='intro'`. */
  nodeName: string;
  /** The image's URL; null for text. */
  url: string | null;
  /** Area in CSS pixels once the parse chunk `after` is done, growing; `after` null: from the start (the recorded element without a layout). */
  sizes: Array<{ after: string | null; size: number }>;
  /** Nodes the paint waits for besides its chunk and the first contentful paint: an image's resource, a text's web fonts that keep it invisible. */
  waitsFor: string[];
  /** The element the recording named: its paint is the `lcp` marker's. */
  recorded: boolean;
}

/** Named rules beyond Table 3.1's numbers. */
export const RULES: Record<string, string> = {
  R1: "ParseChunk -> Resource",
  R2: "Computation -> Resource",
  R3: "ParseChunk(n-1) & DownloadChunk(n) -> ParseChunk(n)",
  R4: "ScriptEval & ParseChunk(n-1) & DownloadChunk(n) -> ParseChunk(n)",
  R5: "ParseChunk -> DownloadChunk(0) (iframe tag)",
  R6: "ScriptEval -> DownloadChunk(0) (script-created iframe)",
  R7: "Event -> DownloadChunk(0)",
  R8: "Timer -> DownloadChunk(0)",
  R9: "DownloadChunk(n-1) -> DownloadChunk(n)",
  R10: "Resource(script) -> ScriptEval",
  R11: "CssEval & Resource(script) -> ScriptEval",
  R12: "ParseChunk -> ScriptEval (inline)",
  R13: "CssEval & ParseChunk -> ScriptEval",
  R14: "ScriptEval -> ScriptEval",
  R15: "Event -> ScriptEval",
  R16: "Timer -> ScriptEval",
  R17: "Resource(script) & ParseChunk(last) -> ScriptEval(defer)",
  R18: "Resource(css) -> CssEval",
  R19: "ScriptEval -> Timer",
  R20: "Event -> Timer",
  R21: "Timer -> Timer",
  R22: "DownloadChunk(frame, last) & ScriptEval parent -> ScriptEval(frame)",
  R23: "DownloadChunk(frame, last) & Event parent -> Event(frame)",
  R24: "DownloadChunk(frame, last) & Timer parent -> Timer(frame)",
  R25: "Event-specific parent -> Event (Appendix A)",
  continuation: "a re-entrant computation resumes after its nested child (split around children)",
  "completion-dcl": "last parse chunk and deferred scripts -> DOMContentLoaded marker (Fig 3.9)",
  "completion-load": "resources, the evaluation of late scripts and style sheets among them, subframes and DOMContentLoaded -> load marker (Fig 3.9)",
  "completion-load-raced": "a resource rendering asked for (a CSS image or font, a lazy image), or a timer set in motion -> load marker: load waits for it only if it was requested before everything else load waits for was done",
  "completion-event": "completion marker -> its event handler (DOMContentLoaded, load)",
  "fetch-callback": "fetched resource -> the promise or XHR callback that consumes it (as Appendix A's XHR events)",
  preload: "DownloadChunk -> Resource or preconnect (the preload scanner found the tag before the parser reached it)",
  "session-cache": "first fetch of a URL -> later reference served from the cache",
  "lazy-binding": "parse chunk that used a CSS-referenced resource, or that holds a lazy image's tag -> the resource",
  "module-import": "Resource(module) -> Resource(module it imports statically), fetched once the importer has arrived",
  "sync-xhr": "Resource -> the rest of the computation that requested it synchronously (the main thread waits for the response)",
  worker: "Resource(a worker's script) -> Resource(what the worker requested): the worker's own thread is not in the graph",
  "paint-fcp": "render-blocking style sheets, parser-blocking scripts and the last parse chunk before it -> first contentful paint marker",
  "paint-lcp": "first contentful paint, the largest element's image (or, for text, web fonts) and the last parse chunk before it -> largest contentful paint marker",
  "font-display-block": "Resource(web font of a font-display: block face) -> largest contentful paint of text in it, which waits for the font at most 3 s from its request",
  "font-display-auto": "Resource(web font of a font-display: auto face) -> largest contentful paint of text in it, which waits for the font at most until 2 s after navigation start (Chromium)",
  "style-recalc": "render-blocking style sheet parsed before it -> a resource CSS references (Chromium resolves styles only once every render-blocking sheet is in)",
  render: "the frame rendered before, the main frame's last computation before it and the render-blocking sheets parsed by then -> a rendering; a rendering -> what its layout requested (CSS-referenced resources, lazy images) and the parse chunk the parser resumed with after it",
  "render-raced": "a script from a file that ran just before a rendering -> the rendering: it waits for the script only if the script had started by then",
};
