import { entryExtensions } from "./har-extensions.js";
import { hasTimings, resourceTiming } from "./har-timings.js";
import { headerObject } from "./http-message.js";
import { importedRecording, ImportError, type ImportedResponse } from "./imported-recording.js";
import type { Recording } from "./recording.js";

type P = Record<string, any>;

export interface Imported {
  recording: Recording;
  /** What was left out or assumed, one line each, for the user. */
  warnings: string[];
}

/**
 * A HAR 1.2 file (Chrome's, Firefox's, WebPageTest's) as a recording: its first page's requests,
 * their timing as the file gives it, bodies where it has them and filler of the stated size where
 * it has not, and initiators from Chrome's or WebPageTest's `_initiator` where present
 * (har-extensions.ts), inferred otherwise.
 */
export function importHar(har: unknown, source: string, options: { keepCredentials?: boolean } = {}): Imported {
  const log = (har as P)?.log;
  if (!log || typeof log !== "object") throw new ImportError(source, "/log", "missing: not a HAR file (HAR keeps everything under \"log\")");
  if (!Array.isArray(log.entries)) throw new ImportError(source, "/log/entries", "missing or not an array: HAR keeps its requests in log.entries");
  // A page without an id cannot be told apart from the others: the entries are then all one page.
  const page: P | null = Array.isArray(log.pages) && typeof log.pages[0]?.id === "string" ? log.pages[0] : null;
  const warnings: string[] = [];
  let otherPages = 0;
  let otherSchemes = 0;
  const taken: { e: P; at: string; startEpochMs: number }[] = [];
  log.entries.forEach((e: P, i: number) => {
    const at = `/log/entries/${i}`;
    checkEntry(e, source, at);
    if (page && e.pageref !== undefined && e.pageref !== page.id) return void otherPages++;
    if (!/^https?:/i.test(e.request.url)) return void otherSchemes++;
    taken.push({ e, at, startEpochMs: Date.parse(e.startedDateTime) });
  });
  if (!taken.length) throw new ImportError(source, "/log/entries", "no HTTP request of the first page to import");
  if (otherPages) warnings.push(`${otherPages} requests of the file's other pages left out: the import takes its first page, "${page!.id}"`);
  if (otherSchemes) warnings.push(`${otherSchemes} requests other than http(s) (data:, blob:, ...) left out: nothing serves them`);
  taken.sort((a, b) => a.startEpochMs - b.startEpochMs);
  const pageEpochMs = page && Number.isFinite(Date.parse(page.startedDateTime)) ? Math.min(Date.parse(page.startedDateTime), taken[0]!.startEpochMs) : taken[0]!.startEpochMs;

  const responses: ImportedResponse[] = taken.map(({ e, at, startEpochMs }) => {
    const size = e.response.content?.size;
    if (typeof e.response.content?.text !== "string" && Number.isFinite(size) && size > MAX_FILLER) {
      throw new ImportError(source, `${at}/response/content/size`, `${size} bytes without the body: more than the ${MAX_FILLER} bytes of filler pagepath stores for one response`);
    }
    return response(e, startEpochMs - pageEpochMs, startEpochMs);
  });
  const timings = page?.pageTimings ?? {};
  const imported = importedRecording(responses, {
    format: "har",
    source,
    creator: log.creator?.name ? `${log.creator.name}${log.creator.version ? " " + log.creator.version : ""}` : null,
    browser: log.browser?.name ? `${log.browser.name}/${log.browser.version ?? ""}` : null,
    pageEpochMs,
    // pageTimings are ms since the page's start, which is where its first request began.
    lifecycleMs: {
      domContentLoaded: finite(timings.onContentLoad),
      load: finite(timings.onLoad),
      firstContentfulPaint: finite(page?._firstContentfulPaint ?? timings._firstContentfulPaint),
      largestContentfulPaint: finite(page?._largestContentfulPaint ?? timings._largestContentfulPaint),
    },
    keepCredentials: options.keepCredentials ?? false,
    timingAssumption: "each request's start and phases are the HAR's (startedDateTime, timings); the server's delay is timings.wait less the connection's handshake round trip, as for a recording",
  });
  return { recording: imported.recording, warnings: [...warnings, ...imported.warnings] };
}

/** The largest body an import makes up for a response the file has only the size of (256 MiB). */
const MAX_FILLER = 256 * 1024 * 1024;

function checkEntry(e: P, source: string, at: string): void {
  if (!e || typeof e !== "object") throw new ImportError(source, at, "not an object");
  if (typeof e.request?.url !== "string") throw new ImportError(source, `${at}/request/url`, "missing or not a string");
  if (!URL.canParse(e.request.url)) throw new ImportError(source, `${at}/request/url`, `"${e.request.url.slice(0, 100)}" is not a URL`);
  if (typeof e.request.method !== "string") throw new ImportError(source, `${at}/request/method`, "missing or not a string");
  if (typeof e.startedDateTime !== "string") throw new ImportError(source, `${at}/startedDateTime`, "missing or not a string");
  if (!Number.isFinite(Date.parse(e.startedDateTime))) throw new ImportError(source, `${at}/startedDateTime`, `${JSON.stringify(e.startedDateTime.slice(0, 40))} is not an ISO 8601 date`);
  if (!e.response || typeof e.response !== "object" || typeof e.response.status !== "number") throw new ImportError(source, `${at}/response/status`, "missing or not a number");
}

/** One HAR entry as the import's common form. */
function response(e: P, startMs: number, startEpochMs: number): ImportedResponse {
  const r = e.response;
  const failed = failedEntry(e);
  const t = hasTimings(e.timings) ? resourceTiming(e.timings, 0) : null;
  const endMs = t ? t.endMs : Math.max(0, Number(e.time) || 0);
  const content = r.content ?? {};
  const text = typeof content.text === "string" ? content.text : null;
  const body = text === null ? null : content.encoding === "base64" ? Buffer.from(text, "base64") : Buffer.from(text, "utf8");
  const transfer = Number.isFinite(r._transferSize) ? r._transferSize : Number.isFinite(e._bytesIn) ? e._bytesIn : r.headersSize >= 0 && r.bodySize >= 0 ? r.headersSize + r.bodySize : null;
  const x = entryExtensions(e);
  return {
    url: e.request.url,
    method: e.request.method,
    requestHeaders: harHeaders(e.request.headers),
    postData: typeof e.request.postData?.text === "string" ? e.request.postData.text : null,
    startMs,
    startEpochMs,
    headersMs: failed ? null : t ? t.headersMs : endMs,
    endMs,
    timing: failed ? null : (t?.timing ?? null),
    status: failed ? null : r.status,
    statusText: r.statusText ?? "",
    responseHeaders: harHeaders(r.headers),
    mimeType: String(content.mimeType ?? "").split(";")[0]!.trim() || "x-unknown",
    protocol: protocol(r.httpVersion ?? e.request.httpVersion),
    remoteAddress: typeof e.serverIPAddress === "string" && e.serverIPAddress ? e.serverIPAddress : null,
    connectionId: x.connectionId ?? (typeof e.connection === "string" && e.connection ? e.connection : null),
    redirectTo: typeof r.redirectURL === "string" && r.redirectURL ? r.redirectURL : null,
    failure: failed ? String(r._error ?? "the HAR has no response for it") : null,
    fromCache: fromCache(e),
    resourceType: x.resourceType,
    priority: x.priority,
    initiator: x.initiator,
    body,
    bodySize: Number.isFinite(content.size) && content.size >= 0 ? content.size : null,
    encodedDataLength: transfer,
  };
}

/**
 * Chrome's `_fromCache`; without it, HAR 1.2's own sign of a cached response: a body received of
 * zero bytes (`bodySize` 0) for content that has some.
 */
function fromCache(e: P): "memory" | "disk" | null {
  if (e._fromCache === "memory" || e._fromCache === "disk") return e._fromCache;
  const r = e.response;
  return !failedEntry(e) && r.bodySize === 0 && r.content?.size > 0 ? "disk" : null;
}

function failedEntry(e: P): boolean {
  return e.response.status === 0 || typeof e.response._error === "string";
}

function finite(x: unknown): number | null {
  return typeof x === "number" && Number.isFinite(x) && x >= 0 ? x : null;
}

/** HAR's header list as CDP's object (a name given twice: one value of lines), entries without a name skipped. */
function harHeaders(list: unknown): Record<string, string> {
  const pairs = Array.isArray(list) ? list.filter((h) => typeof h?.name === "string").map((h): [string, string] => [h.name, String(h.value ?? "")]) : [];
  return headerObject(pairs);
}

function protocol(version: unknown): string | null {
  const v = String(version ?? "").toLowerCase();
  if (!v || v === "unknown") return null;
  if (v === "http/2" || v === "http/2.0" || v === "h2") return "h2";
  if (v === "http/3" || v === "h3" || v.startsWith("h3-")) return "h3";
  return v;
}
