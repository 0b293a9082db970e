import { lcpFromTrace } from "./lcp.js";
import type { CdpEvent, FrameLifecycle, FrameTreeNode, LcpFont, Lifecycle } from "./recording.js";
import { traceRequests } from "./trace-network.js";

type P = Record<string, any>;

/**
 * Page and frame lifecycle, in ms since navigation start. CDP's Page.lifecycleEvent and the trace
 * share Chrome's monotonic clock (CDP in seconds, trace in microseconds), so both convert directly.
 */
export function extractLifecycle(events: CdpEvent[], trace: unknown[] | null, mainFrameId: string | null, lcpFont?: LcpFont | null): Lifecycle {
  let navStart: number | null = null;
  let navWall: number | null = null;
  const frames = new Map<string, FrameLifecycle>();
  const frame = (id: string): FrameLifecycle => {
    let f = frames.get(id);
    if (!f) frames.set(id, (f = { frameId: id, url: "", parentFrameId: null, domContentLoaded: null, load: null }));
    return f;
  };
  // The initial empty document's lifecycle comes before the navigation: not the page's.
  const rel = (ts: number) => (navStart === null || ts < navStart ? null : round(ts * 1000 - navStart * 1000));
  const paints: Record<string, number | null> = { firstPaint: null, firstContentfulPaint: null };

  const navigation = (events as { method: string; params: P }[]).find(({ method, params: p }) => method === "Network.requestWillBeSent" && p.type === "Document" && p.frameId === mainFrameId)?.params;
  if (navigation) {
    navStart = navigation.timestamp;
    navWall = navigation.wallTime ?? null;
  } else {
    // A pass without the Network domain (the timing pass of two) has the navigation in its trace alone.
    navStart = traceRequests(trace).find((r) => r.navigation && r.frameId === mainFrameId)?.hops[0]!.at ?? null;
  }
  for (const { method, params: p } of events as { method: string; params: P }[]) {
    if (method === "Page.frameAttached") {
      frame(p.frameId).parentFrameId = p.parentFrameId ?? null;
    } else if (method === "Page.frameNavigated") {
      const f = frame(p.frame.id);
      f.url = p.frame.url;
      f.parentFrameId = p.frame.parentId ?? f.parentFrameId;
    } else if (method === "Page.lifecycleEvent") {
      const f = frame(p.frameId);
      if (p.name === "DOMContentLoaded") f.domContentLoaded ??= rel(p.timestamp);
      else if (p.name === "load") f.load ??= rel(p.timestamp);
      else if (p.frameId === mainFrameId && p.name in paints) paints[p.name] ??= rel(p.timestamp);
    }
  }

  const main = mainFrameId ? frames.get(mainFrameId) : undefined;
  const lcp = lcpFromTrace(trace, navStart, mainFrameId, lcpFont);
  return {
    navigationStartMonotonic: navStart,
    navigationStartWallTime: navWall,
    domContentLoaded: main?.domContentLoaded ?? null,
    load: main?.load ?? null,
    firstPaint: paints.firstPaint ?? fromTrace(trace, "firstPaint", navStart, mainFrameId),
    firstContentfulPaint: paints.firstContentfulPaint ?? fromTrace(trace, "firstContentfulPaint", navStart, mainFrameId),
    largestContentfulPaint: lcp.at,
    largestContentfulPaintElement: lcp.element,
    largestContentfulPaintMissing: lcp.missing,
    frames: [...frames.values()],
  };
}

/** The main frame's first `name` mark: a subframe's paints are not the page's. */
function fromTrace(trace: unknown[] | null, name: string, navStart: number | null, mainFrameId: string | null): number | null {
  if (!trace || navStart === null) return null;
  for (const e of trace as P[]) if (e.name === name && e.args?.frame === mainFrameId) return round(e.ts / 1000 - navStart * 1000);
  return null;
}

/** CDP's Page.getFrameTree result as a plain tree. */
export function toFrameTree(tree: P | undefined): FrameTreeNode | null {
  if (!tree?.frame) return null;
  return {
    id: tree.frame.id,
    parentId: tree.frame.parentId ?? null,
    url: tree.frame.url,
    ...(tree.frame.name ? { name: tree.frame.name } : {}),
    children: (tree.childFrames ?? []).map((c: P) => toFrameTree(c)!).filter(Boolean),
  };
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
