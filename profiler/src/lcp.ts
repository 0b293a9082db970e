import type { LcpElement, LcpFont } from "./recording.js";

type P = Record<string, any>;

const inMain = (e: P, mainFrameId: string | null) => (e.args?.frame !== undefined ? e.args.frame === mainFrameId : e.args?.data?.isOutermostMainFrame === true);

/** The main frame's largest contentful paint as the trace shows it, or why there is none. */
export interface LcpFromTrace {
  at: number | null;
  element: LcpElement | null;
  missing: string | null;
}

export const LCP_NO_TRACE = "the recording has no trace";
export const LCP_NO_CANDIDATE = "no largest contentful paint candidate in the main frame: nothing contentful (text or image) was painted";

/**
 * The last `largestContentfulPaint::Candidate` of the main frame is the page's LCP (Chromium
 * emits one per new largest element). For an image it does not carry the URL; the
 * `LargestImagePaint::Candidate` of the same DOM node and paint does (`imageUrl`).
 * Subframes' candidates do not count: LCP is the outermost page's.
 */
export function lcpFromTrace(trace: unknown[] | null, navStartS: number | null, mainFrameId: string | null, font?: LcpFont | null): LcpFromTrace {
  if (!trace || navStartS === null) return { at: null, element: null, missing: LCP_NO_TRACE };
  const last = lastCandidate(trace, mainFrameId);
  if (!last) return { at: null, element: null, missing: LCP_NO_CANDIDATE };
  const d = last.args.data ?? {};
  const image = d.type === "image"
    ? (trace as P[]).find((e) => e.name === "LargestImagePaint::Candidate" && inMain(e, mainFrameId) && e.args?.data?.DOMNodeId === d.nodeId && e.ts === last!.ts)
    : undefined;
  return {
    at: Math.round((last.ts / 1000 - navStartS * 1000) * 1000) / 1000,
    element: {
      type: d.type === "image" ? "image" : "text",
      nodeName: String(d.nodeName ?? ""),
      url: typeof image?.args.data.imageUrl === "string" && image.args.data.imageUrl ? image.args.data.imageUrl : null,
      size: Number(d.size ?? 0),
      ...(d.type === "image" || font === undefined ? {} : { font }),
    },
    missing: null,
  };
}

/** The main frame's last LCP candidate event: Chromium emits one per new largest element. */
function lastCandidate(trace: unknown[], mainFrameId: string | null): P | undefined {
  let last: P | undefined;
  for (const e of trace as P[]) {
    if (e.name === "largestContentfulPaint::Candidate" && inMain(e, mainFrameId) && (!last || e.ts >= last.ts)) last = e;
  }
  return last;
}

/** The DOM node (backend id) of the main frame's LCP when it is text, for asking the live page its font. */
export function lcpTextNode(trace: unknown[] | null, mainFrameId: string | null): number | null {
  const last = trace ? lastCandidate(trace, mainFrameId) : undefined;
  const d = last?.args?.data;
  return d && d.type !== "image" && typeof d.nodeId === "number" ? d.nodeId : null;
}
