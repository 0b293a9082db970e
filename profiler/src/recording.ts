import type { PageLayout } from "./layout.js";
/**
 * The recording format (DESIGN.md contract 1), as TypeScript types. The written description is
 * docs/formats/recording.md; bump RECORDING_SCHEMA_VERSION on any incompatible change.
 *
 * A recording is a directory:
 *   manifest.json   RecordingManifest
 *   events.jsonl    one CdpEvent per line, in arrival order (Network.*, Page.*)
 *   trace.json      { traceEvents: [...] } from Chrome's tracing
 *   archive.json    ArchiveEntry[]: every request/response, with bodies in bodies/
 *   bodies/<sha256> response bodies, byte for byte as the page received them (decoded)
 */
export const RECORDING_SCHEMA_VERSION = 1;

export type RecordingStatus = "complete" | "incomplete";

export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
}

export interface Conditions {
  cpuThrottlingRate: number;
  network: NetworkConditions | null;
  device: DeviceConditions | null;
}

export interface NetworkConditions {
  name: string;
  latencyMs: number;
  downloadKbps: number;
  uploadKbps: number;
}

export interface DeviceConditions {
  name: string;
  width: number;
  height: number;
  deviceScaleFactor: number;
  mobile: boolean;
  userAgent?: string;
}

export interface StopPolicy {
  /** After the load event, stop once the network has been idle this long. */
  quietMs: number;
  /** Overall cap on one page, from navigation start. */
  capMs: number;
}

/** Timestamps in ms since navigation start (the main document's request), or null if never seen. */
export interface FrameLifecycle {
  frameId: string;
  url: string;
  parentFrameId: string | null;
  domContentLoaded: number | null;
  load: number | null;
}

export interface Lifecycle {
  /** Monotonic clock (s) of navigation start, the time base of CDP's Network timestamps. */
  navigationStartMonotonic: number | null;
  navigationStartWallTime: number | null;
  domContentLoaded: number | null;
  load: number | null;
  firstPaint: number | null;
  firstContentfulPaint: number | null;
  largestContentfulPaint: number | null;
  /** What the largest contentful paint painted; null when largestContentfulPaint is. Absent in recordings made before it was recorded. */
  largestContentfulPaintElement?: LcpElement | null;
  /** Why largestContentfulPaint is null (no trace, no candidate); null when it has a value. Absent in older recordings. */
  largestContentfulPaintMissing?: string | null;
  frames: FrameLifecycle[];
}

/** The element of the main frame's largest contentful paint, from the trace's last LCP candidate. */
export interface LcpElement {
  type: "image" | "text";
  /** The DOM node as Chromium names it, e.g. `IMG`, `P`, `DIV class='banner'`. */
  nodeName: string;
  /** The image's URL (an <img>, or a CSS background image); null for text. */
  url: string | null;
  /** Painted area in CSS pixels, as LCP compares candidates. */
  size: number;
  /** For text: the element's computed font, read from the page after the load; null when it could not be read. Absent for images and in older recordings. */
  font?: LcpFont | null;
}

/** A text element's computed font properties, as CSS font matching takes them. */
export interface LcpFont {
  /** The computed `font-family` list, e.g. `Nunito, -apple-system, sans-serif`. */
  family: string;
  /** The computed `font-weight`, e.g. `400`. */
  weight: string;
  /** The computed `font-style`, e.g. `normal`. */
  style: string;
}

export interface FrameTreeNode {
  id: string;
  parentId: string | null;
  url: string;
  name?: string;
  children: FrameTreeNode[];
}

export interface RecordingManifest {
  schemaVersion: number;
  kind: "pagepath-recording";
  tool: { name: "pagepath"; version: string };
  url: string;
  finalUrl: string | null;
  status: RecordingStatus;
  /** Why the recording is incomplete; null when complete. */
  reason: string | null;
  startedAt: string;
  durationMs: number;
  browser: { product: string; userAgent: string; executablePath: string };
  conditions: Conditions;
  stopPolicy: StopPolicy;
  /** What ended the recording: quiet period reached, cap, navigation error, browser gone. */
  stoppedBy: "quiet" | "cap" | "error" | "browser-gone";
  redaction: { enabled: boolean; headers: string[] };
  traceCategories: string[];
  /** Files present; a missing trace is recorded here, not hidden. */
  /** `layout`: layout.json is there (absent in recordings made before it, and false in imported ones). */
  files: { events: boolean; trace: boolean; archive: boolean; layout?: boolean };
  lifecycle: Lifecycle;
  frameTree: FrameTreeNode | null;
  counts: { events: number; traceEvents: number; requests: number; bodies: number; failedRequests: number };
  /** Set when the recording was made by `pagepath import` from another tool's file, not by the profiler. */
  imported?: ImportedFrom;
  /**
   * Wall-clock seconds minus Chrome's monotonic seconds (the clock of every CDP and trace
   * timestamp: CLOCK_MONOTONIC, which Node reads too), measured by the profiler as the load began.
   * Absent in imported and older recordings.
   */
  clock?: { wallMinusMonotonicS: number };
  /** Set when the recording was made from two loads (`pagepath profile --passes 2`). */
  passes?: TwoPasses;
}

/**
 * A recording of two loads: timing (trace, lifecycle, every request's ids and times) from a load
 * recorded with the trace alone, content (bodies, headers, initiators) from one recorded with the
 * Network domain. Requests are matched by method and URL, in order.
 */
export interface TwoPasses {
  /** The content pass, as its own manifest had it (the rest of this manifest is the timing pass's). */
  content: { startedAt: string; durationMs: number; status: RecordingStatus; reason: string | null };
  /** Requests of the timing pass that found their content pass request. */
  matchedRequests: number;
  /** URLs the timing pass requested and the content pass did not: archived without a body. */
  timingOnly: string[];
  /**
   * URLs the content pass requested and the timing pass's trace does not show (some never reach
   * the renderer: a dedicated worker's script): kept, placed where the same script work ran in
   * the timing pass, or else moved as the request sent before them was.
   */
  contentOnly: string[];
}

export interface ImportedFrom {
  format: "har" | "mahimahi" | "wpr";
  /** The file or folder imported, as given. */
  source: string;
  /** The tool that wrote it, as the file names it (HAR's creator), or null. */
  creator: string | null;
  /** What the import assumed where the file is silent (timing, initiators, bodies), one sentence each. */
  assumptions: string[];
}

export type InitiatorType = "parser" | "script" | "preload" | "SignedExchange" | "preflight" | "FedCM" | "other";

export interface ResourceTiming {
  /** CDP ResourceTiming fields, ms relative to requestTime (s, monotonic). -1 when not applicable. */
  requestTime: number;
  dnsStart: number; dnsEnd: number;
  connectStart: number; connectEnd: number;
  sslStart: number; sslEnd: number;
  sendStart: number; sendEnd: number;
  receiveHeadersStart: number; receiveHeadersEnd: number;
}

export interface ArchiveEntry {
  /** requestId, plus "#n" for the n-th redirect hop of the same request. */
  id: string;
  requestId: string;
  url: string;
  method: string;
  frameId: string | null;
  loaderId: string | null;
  resourceType: string;
  initiator: {
    type: InitiatorType | string;
    url: string | null;
    lineNumber: number | null;
    stackFunctions: string[];
    /** Set by an import whose file names no initiator: how it was inferred. Absent when recorded. */
    inferred?: "referencing-response" | "document-order";
  };
  priority: { initial: string | null; final: string | null };
  requestHeaders: Record<string, string>;
  postData: string | null;
  /** Monotonic seconds: request sent (requestWillBeSent), response headers, finished/failed. */
  times: { start: number; response: number | null; end: number | null; wallTime: number | null };
  response: null | {
    status: number;
    statusText: string;
    headers: Record<string, string>;
    mimeType: string;
    protocol: string | null;
    remoteAddress: string | null;
    connectionId: string | null;
    connectionReused: boolean | null;
    timing: ResourceTiming | null;
  };
  fromCache: "memory" | "disk" | "prefetch" | "service-worker" | null;
  redirectedTo: string | null;
  sizes: { encodedDataLength: number | null; bodySize: number | null };
  body: null | {
    sha256: string;
    size: number;
    base64Encoded: boolean;
    /** Set by an import whose file has the response's size but not its bytes: the body is filler of that size. */
    placeholder?: true;
  };
  bodyMissing: string | null;
  failure: null | { errorText: string; canceled: boolean; blockedReason: string | null };
  serverDelay: { ms: number | null; method: ServerDelayMethod; rttMs: number | null };
}

export type ServerDelayMethod =
  | "ttfb-minus-handshake-rtt"
  | "ttfb-minus-connection-rtt"
  | "ttfb-minus-origin-rtt"
  | "ttfb-no-rtt"
  | "not-measurable";

export interface Recording {
  manifest: RecordingManifest;
  events: CdpEvent[];
  trace: unknown[] | null;
  archive: ArchiveEntry[];
  bodies: Map<string, Buffer>;
  /** The main document's layout after the load (layout.ts); absent or null when not captured. */
  layout?: PageLayout | null;
}
