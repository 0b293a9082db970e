import { initiatorFrom, names, spellings, type Referrer } from "./inferred-initiators.js";
import { ImportError, readableText, type ImportedResponse } from "./imported-recording.js";

/** A response from an archive that keeps no timing (Mahimahi, Web Page Replay). */
export type UntimedResponse = Omit<ImportedResponse, "startMs" | "startEpochMs" | "headersMs" | "endMs" | "timing" | "initiator">;

/** The placeholder spacing of an untimed archive's requests: one step per level of discovery. */
const STEP_MS = 10;

/**
 * An untimed archive's responses in the order a browser could have asked for them, each with the
 * response that led to it: the page's document first, then breadth first what each text response
 * names (the document's before a style sheet's or script's, so the parser is credited first), a
 * redirect's target right after it, and last whatever nothing names, off the document. The times
 * are placeholders that keep that order (a request STEP_MS after what named it), not measurements.
 */
export function orderUntimed(responses: UntimedResponse[], page: string | null, recordedAtMs: number, source: string): ImportedResponse[] {
  if (!responses.length) throw new ImportError(source, "(archive)", "no HTTP responses in it");
  const texts = responses.map((r) => readableText(r.body, r.mimeType));
  const byUrl = new Map<string, number>();
  responses.forEach((r, i) => byUrl.has(key(r.url)) || byUrl.set(key(r.url), i));
  const redirectTarget = (i: number): number | undefined => {
    const r = responses[i]!;
    const location = r.redirectTo ?? r.responseHeaders["Location"] ?? r.responseHeaders["location"];
    if (r.status === null || r.status < 300 || r.status >= 400 || !location || !URL.canParse(location, r.url)) return undefined;
    return byUrl.get(key(new URL(location, r.url).href));
  };
  let first = pageIndex(responses, texts, page, byUrl, source);
  for (let back = responses.findIndex((_, i) => redirectTarget(i) === first); back >= 0 && back !== first; back = responses.findIndex((_, i) => redirectTarget(i) === first)) first = back;

  const depth = new Map<number, number>();
  const initiators = new Map<number, ImportedResponse["initiator"]>();
  const order: number[] = [];
  const referrer = (i: number): Referrer => ({ url: responses[i]!.url, start: 0, responded: 0, end: 0, resourceType: typeOf(responses[i]!), text: texts[i]! });
  const mainRef = referrer(first);
  const place = (i: number, d: number, initiator: ImportedResponse["initiator"]) => {
    if (depth.has(i)) return;
    depth.set(i, d);
    initiators.set(i, initiator);
    order.push(i);
    const next = redirectTarget(i);
    if (next !== undefined) place(next, d, initiator);
  };
  place(first, 0, null);
  for (let k = 0; k < order.length; k++) {
    const i = order[k]!;
    const text = texts[i];
    if (!text) continue;
    responses.forEach((r, j) => {
      if (!depth.has(j) && names(text, r.url)) place(j, depth.get(i)! + 1, initiatorFrom(referrer(i), mainRef, spellings(r.url)));
    });
  }
  const last = Math.max(...depth.values()) + 1;
  responses.forEach((_, j) => place(j, last, initiatorFrom(undefined, mainRef, [])));

  return order.map((i) => {
    const startMs = depth.get(i)! * STEP_MS;
    return { ...responses[i]!, startMs, startEpochMs: recordedAtMs + startMs, headersMs: responses[i]!.status === null ? null : STEP_MS / 4, endMs: STEP_MS / 2, timing: null, initiator: initiators.get(i)! };
  });
}

/** The assumption an untimed import states in its manifest. */
export const UNTIMED_ASSUMPTION =
  "no timing in the archive: requests are ordered by discovery (the page's document, then what each text response names, breadth first) with placeholder times 10 ms apart a level, and every server delay is not measurable (the replay draws one from its per-type distribution)";

/**
 * The page's document: the response for `page` when given, else the one HTML response that no
 * other response names (a page's own document is named by none of its resources; its frames' are).
 */
function pageIndex(responses: UntimedResponse[], texts: (string | null)[], page: string | null, byUrl: Map<string, number>, source: string): number {
  if (page !== null) {
    const i = byUrl.get(key(page));
    if (i === undefined) throw new ImportError(source, "--page", `no response for ${page} in the archive (it has ${sample(responses.map((r) => r.url))})`);
    return i;
  }
  const html = responses.map((_, i) => i).filter((i) => responses[i]!.status === 200 && /html/.test(responses[i]!.mimeType));
  const roots = html.filter((i) => !texts.some((t, j) => j !== i && t !== null && names(t, responses[i]!.url)));
  if (roots.length === 1) return roots[0]!;
  const pool = roots.length ? roots : html;
  if (!pool.length) throw new ImportError(source, "(archive)", "no HTML response in it to be the page: say which URL is the page with --page URL");
  throw new ImportError(source, "--page", `${pool.length} HTML responses could be the page (${sample(pool.map((i) => responses[i]!.url))}): say which with --page URL`);
}

function sample(unsorted: string[]): string {
  const urls = [...unsorted].sort();
  return urls.slice(0, 5).join(", ") + (urls.length > 5 ? `, and ${urls.length - 5} more` : "");
}


function typeOf(r: UntimedResponse): string {
  if (/html/.test(r.mimeType)) return "Document";
  if (/javascript|ecmascript/.test(r.mimeType)) return "Script";
  return /css/.test(r.mimeType) ? "Stylesheet" : "Other";
}

function key(url: string): string {
  const i = url.indexOf("#");
  return i < 0 ? url : url.slice(0, i);
}
