import type { LcpElement } from "./recording.js";

type P = Record<string, any>;

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
export function lcpFromTrace(trace: unknown[] | null, navStartS: number | null, mainFrameId: string | null): LcpFromTrace {
  if (!trace || navStartS === null) return { at: null, element: null, missing: LCP_NO_TRACE };
  const inMain = (e: P) => (e.args?.frame !== undefined ? e.args.frame === mainFrameId : e.args?.data?.isOutermostMainFrame === true);
  let last: P | undefined;
  for (const e of trace as P[]) {
    if (e.name === "largestContentfulPaint::Candidate" && inMain(e) && (!last || e.ts >= last.ts)) last = e;
  }
  if (!last) return { at: null, element: null, missing: LCP_NO_CANDIDATE };
  const d = last.args.data ?? {};
  const image = d.type === "image"
    ? (trace as P[]).find((e) => e.name === "LargestImagePaint::Candidate" && inMain(e) && e.args?.data?.DOMNodeId === d.nodeId && e.ts === last!.ts)
    : undefined;
  return {
    at: Math.round((last.ts / 1000 - navStartS * 1000) * 1000) / 1000,
    element: {
      type: d.type === "image" ? "image" : "text",
      nodeName: String(d.nodeName ?? ""),
      url: typeof image?.args.data.imageUrl === "string" && image.args.data.imageUrl ? image.args.data.imageUrl : null,
      size: Number(d.size ?? 0),
    },
    missing: null,
  };
}
