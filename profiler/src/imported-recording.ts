import { createHash } from "node:crypto";
import { inferInitiator, type Referrer } from "./inferred-initiators.js";
import { CREDENTIAL_HEADERS, redactHeaders, redactUrl } from "./redact.js";
import { RECORDING_SCHEMA_VERSION, type ArchiveEntry, type CdpEvent, type ImportedFrom, type FrameTreeNode, type Recording, type ResourceTiming } from "./recording.js";
import { estimateServerDelays } from "./server-delay.js";
import { isTextMime } from "./text-body.js";
import { TOOL_VERSION } from "./version.js";

/** A file that cannot be imported: the file, the JSON pointer (or place) and what is wrong. */
export class ImportError extends Error {
  constructor(readonly file: string, readonly pointer: string, detail: string) {
    super(`${file}: ${pointer}: ${detail}`);
  }
}

/** One request and its response as every import format gives it, before it becomes an archive entry. */
export interface ImportedResponse {
  url: string;
  method: string;
  requestHeaders: Record<string, string>;
  postData: string | null;
  /** ms since the page's first request. */
  startMs: number;
  startEpochMs: number;
  /** ms after startMs: response headers in (null: none came), and the end. */
  headersMs: number | null;
  endMs: number;
  /** CDP ResourceTiming relative to the request's start (requestTime 0, set here). */
  timing: ResourceTiming | null;
  /** null: no response (a failure). */
  status: number | null;
  statusText: string;
  responseHeaders: Record<string, string>;
  mimeType: string;
  protocol: string | null;
  remoteAddress: string | null;
  connectionId: string | null;
  redirectTo: string | null;
  failure: string | null;
  fromCache: "memory" | "disk" | null;
  /** As CDP spells it; null: take it from the MIME type. */
  resourceType: string | null;
  priority: string | null;
  /** As the file names it; null: infer it. */
  initiator: ArchiveEntry["initiator"] | null;
  /** The decoded body, null when the file does not have it. */
  body: Buffer | null;
  bodySize: number | null;
  encodedDataLength: number | null;
}

export interface ImportContext {
  format: ImportedFrom["format"];
  source: string;
  creator: string | null;
  browser: string | null;
  /** Wall-clock time of the page's first request. */
  pageEpochMs: number;
  /** Page milestones in ms since the page's first request, null where the file has none. */
  lifecycleMs: { domContentLoaded: number | null; load: number | null; firstContentfulPaint: number | null; largestContentfulPaint: number | null };
  keepCredentials: boolean;
  /** What the recording's timing is, one sentence for the manifest's assumptions. */
  timingAssumption: string;
  /** The archive keeps no timing, so no load time either: the recording is still whole. */
  untimed?: boolean;
}

const MAIN_FRAME = "imported-main-frame";
/** Where an import's monotonic clock starts: CDP's has no meaning outside the machine that recorded. */
const CLOCK_ZERO_S = 1000;
const NO_BODY_STATUS = new Set([204, 205, 304]);

interface Chain {
  requestId: string;
  hops: ImportedResponse[];
}

/**
 * Imported responses (in order of their start) as a recording: redirects joined into one request
 * of several hops, the page's document found, each response given a resource type, a frame, an
 * initiator (the file's or inferred), a stored body (or filler of its stated size) and a server
 * delay estimated as for a profiled page; the CDP events a recording holds, and its manifest.
 */
export function importedRecording(responses: ImportedResponse[], ctx: ImportContext): { recording: Recording; warnings: string[] } {
  const chains = redirectChains(responses);
  const main = chains.find((c) => c.hops[0]!.resourceType === "Document") ?? chains.find((c) => /html/.test(c.hops.at(-1)!.mimeType)) ?? chains[0]!;
  const framed = framedUrls(responses);
  const typeOf = (c: Chain, r: ImportedResponse) =>
    r.resourceType ?? (c === main || framed.has(withoutFragment(r.url)) ? "Document" : (typeFromDestination(c.hops[0]!.requestHeaders) ?? typeFromMime(c.hops.at(-1)!.mimeType)));

  const mainFinal = main.hops.at(-1)!;
  const referrers: Referrer[] = chains.map((c) => {
    const last = c.hops.at(-1)!;
    const text = readableText(last.body, last.mimeType);
    return { url: last.url, start: c.hops[0]!.startMs, responded: last.startMs + (last.headersMs ?? last.endMs), end: last.startMs + last.endMs, resourceType: typeOf(c, last), text };
  });
  const mainReferrer = referrers[chains.indexOf(main)]!;
  const initiators = new Map<Chain, ArchiveEntry["initiator"]>();
  let inferred = 0;
  for (const c of chains) {
    const first = c.hops[0]!;
    let initiator = first.initiator;
    if (c === main) initiator ??= { type: "other", url: null, lineNumber: null, stackFunctions: [] };
    if (!initiator) {
      initiator = inferInitiator({ url: first.url, start: first.startMs }, referrers, mainReferrer);
      inferred++;
    }
    initiators.set(c, initiator);
  }
  const { frames, parents } = frameIds(chains, main, initiators, (c) => typeOf(c, c.hops[0]!) === "Document");
  const bodies = new Map<string, Buffer>();
  const archive: ArchiveEntry[] = [];
  let placeholders = 0;
  for (const c of chains) {
    const initiator = initiators.get(c)!;
    c.hops.forEach((r, n) => {
      const start = CLOCK_ZERO_S + r.startMs / 1000;
      const redirect = n < c.hops.length - 1;
      const { body, bodyMissing, placeholder } = storedBody(r, redirect);
      if (body) bodies.set(body.sha256, body.data);
      if (placeholder) placeholders++;
      archive.push({
        id: n === 0 ? c.requestId : `${c.requestId}#${n}`,
        requestId: c.requestId,
        url: ctx.keepCredentials ? r.url : redactUrl(r.url),
        method: r.method,
        frameId: frames.get(c)!,
        loaderId: null,
        resourceType: typeOf(c, r),
        initiator,
        priority: { initial: r.priority, final: r.priority },
        requestHeaders: ctx.keepCredentials ? r.requestHeaders : redactHeaders(r.requestHeaders),
        postData: r.postData,
        times: {
          start,
          response: r.headersMs === null ? null : start + r.headersMs / 1000,
          end: start + r.endMs / 1000,
          wallTime: r.startEpochMs / 1000,
        },
        response: r.status === null ? null : {
          status: r.status,
          statusText: r.statusText,
          headers: ctx.keepCredentials ? r.responseHeaders : redactHeaders(r.responseHeaders),
          mimeType: r.mimeType,
          protocol: r.protocol,
          remoteAddress: r.remoteAddress,
          connectionId: r.connectionId,
          connectionReused: null,
          timing: r.timing ? { ...r.timing, requestTime: start } : null,
        },
        fromCache: r.fromCache,
        redirectedTo: redirect ? c.hops[n + 1]!.url : null,
        sizes: { encodedDataLength: r.encodedDataLength, bodySize: body ? body.data.length : r.bodySize },
        body: body ? { sha256: body.sha256, size: body.data.length, base64Encoded: !isTextMime(r.mimeType), ...(placeholder ? { placeholder: true as const } : {}) } : null,
        bodyMissing,
        failure: r.failure === null ? null : { errorText: r.failure, canceled: false, blockedReason: null },
        serverDelay: { ms: null, method: "not-measurable", rttMs: null },
      });
    });
  }
  estimateServerDelays(archive);

  const warnings: string[] = [];
  const assumptions = [ctx.timingAssumption, "no trace: parsing and script times are unknown and taken as zero (the graph is built from the network log alone)"];
  if (inferred) assumptions.push(`initiators: ${inferred} of the ${chains.length - 1} requests besides the page's document name none in the file; each hangs off the response that referenced its URL before it was requested, else off the page's document (archive initiator.inferred)`);
  if (placeholders) {
    assumptions.push(`bodies: ${placeholders} responses have their size but not their bytes in the file; each is served as filler of that size (archive body.placeholder)`);
    warnings.push(`${placeholders} responses without their bytes in the file are served as filler of their size: what a page finds in them (links, scripts) is lost`);
  }
  const navStartS = CLOCK_ZERO_S + main.hops[0]!.startMs / 1000;
  const sinceNav = (ms: number | null) => (ms === null ? null : Math.max(0, ms - main.hops[0]!.startMs));
  const lc = ctx.lifecycleMs;
  const load = sinceNav(lc.load);
  // A document other than the page's has a frame of its own, and only such a chain has a parent frame.
  const subframes = chains.filter((c) => parents.has(c)).map((c) => ({ frameId: frames.get(c)!, parentFrameId: parents.get(c)!, url: c.hops.at(-1)!.url, at: CLOCK_ZERO_S + c.hops[0]!.startMs / 1000 }));
  const events = cdpEvents(archive, mainFinal.url, subframes);
  const finalUrl = ctx.keepCredentials ? mainFinal.url : redactUrl(mainFinal.url);
  return {
    warnings,
    recording: {
      manifest: {
        schemaVersion: RECORDING_SCHEMA_VERSION,
        kind: "pagepath-recording",
        tool: { name: "pagepath", version: TOOL_VERSION },
        url: ctx.keepCredentials ? main.hops[0]!.url : redactUrl(main.hops[0]!.url),
        finalUrl,
        status: load === null && !ctx.untimed ? "incomplete" : "complete",
        reason: load === null && !ctx.untimed ? `the ${ctx.format} file gives no load time for its page` : null,
        startedAt: new Date(ctx.pageEpochMs).toISOString(),
        durationMs: Math.max(0, ...archive.map((e) => ((e.times.end ?? e.times.start) - CLOCK_ZERO_S) * 1000)),
        browser: { product: ctx.browser ?? "unknown", userAgent: mainFinal.requestHeaders["User-Agent"] ?? mainFinal.requestHeaders["user-agent"] ?? "", executablePath: "" },
        conditions: { cpuThrottlingRate: 1, network: null, device: null },
        stopPolicy: { quietMs: 0, capMs: 0 },
        stoppedBy: "quiet",
        redaction: { enabled: !ctx.keepCredentials, headers: ctx.keepCredentials ? [] : CREDENTIAL_HEADERS },
        traceCategories: [],
        files: { events: true, trace: false, archive: true },
        lifecycle: {
          navigationStartMonotonic: navStartS,
          navigationStartWallTime: main.hops[0]!.startEpochMs / 1000,
          domContentLoaded: sinceNav(lc.domContentLoaded),
          load,
          firstPaint: null,
          firstContentfulPaint: sinceNav(lc.firstContentfulPaint),
          largestContentfulPaint: sinceNav(lc.largestContentfulPaint),
          largestContentfulPaintElement: null,
          largestContentfulPaintMissing: lc.largestContentfulPaint === null ? `the ${ctx.format} file has no largest contentful paint` : null,
          frames: [
            { frameId: MAIN_FRAME, url: finalUrl, parentFrameId: null, domContentLoaded: sinceNav(lc.domContentLoaded), load },
            ...subframes.map((f) => ({ frameId: f.frameId, url: f.url, parentFrameId: f.parentFrameId, domContentLoaded: null, load: null })),
          ],
        },
        frameTree: frameTree(MAIN_FRAME, null, finalUrl, subframes),
        counts: { events: events.length, traceEvents: 0, requests: archive.length, bodies: bodies.size, failedRequests: archive.filter((e) => e.failure).length },
        imported: { format: ctx.format, source: ctx.source, creator: ctx.creator, assumptions },
      },
      events,
      trace: null,
      archive,
      bodies,
    },
  };
}

/**
 * The frame of each request: the page's document is the main frame, any other document a frame of
 * its own (a file names no frames) inside the frame of what initiated it, and anything else the
 * frame of what initiated it; else the main one.
 */
function frameIds(chains: Chain[], main: Chain, initiators: Map<Chain, ArchiveEntry["initiator"]>, isDocument: (c: Chain) => boolean): { frames: Map<Chain, string>; parents: Map<Chain, string> } {
  const frames = new Map<Chain, string>();
  const parents = new Map<Chain, string>();
  const byUrl = new Map<string, string>();
  let subframes = 0;
  for (const c of chains) {
    const init = initiators.get(c)!.url;
    const initiatorFrame = (init && byUrl.get(withoutFragment(init))) ?? MAIN_FRAME;
    const frame = c === main ? MAIN_FRAME : isDocument(c) ? `imported-frame-${++subframes}` : initiatorFrame;
    if (frame !== MAIN_FRAME && frame !== initiatorFrame) parents.set(c, initiatorFrame);
    frames.set(c, frame);
    for (const hop of c.hops) if (!byUrl.has(withoutFragment(hop.url))) byUrl.set(withoutFragment(hop.url), frame);
  }
  return { frames, parents };
}

interface Subframe { frameId: string; parentFrameId: string; url: string; at: number }

function frameTree(id: string, parentId: string | null, url: string, subframes: Subframe[]): FrameTreeNode {
  return { id, parentId, url, children: subframes.filter((f) => f.parentFrameId === id).map((f) => frameTree(f.frameId, id, f.url, subframes)) };
}

/** The URLs HTML responses load into frames (`<iframe src>`, `<frame src>`), resolved against each document. */
function framedUrls(responses: ImportedResponse[]): Set<string> {
  const out = new Set<string>();
  for (const r of responses) {
    if (!r.body || !/html/.test(r.mimeType)) continue;
    for (const m of r.body.toString("utf8").matchAll(/<i?frame\b[^>]*?\ssrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi)) {
      const src = m[1] ?? m[2] ?? m[3] ?? "";
      if (URL.canParse(src, r.url)) out.add(withoutFragment(new URL(src, r.url).href));
    }
  }
  return out;
}

/** What the request was for, from its Sec-Fetch-Dest header (sent by current browsers), as CDP types it. */
function typeFromDestination(headers: Record<string, string>): string | null {
  const dest = Object.entries(headers).find(([k]) => k.toLowerCase() === "sec-fetch-dest")?.[1]?.toLowerCase();
  if (!dest) return null;
  const types: Record<string, string> = {
    document: "Document", iframe: "Document", frame: "Document", script: "Script", worker: "Script", sharedworker: "Script", serviceworker: "Script",
    style: "Stylesheet", image: "Image", font: "Font", audio: "Media", video: "Media", track: "TextTrack", manifest: "Manifest", empty: "Fetch",
  };
  return types[dest] ?? "Other";
}

/**
 * Redirect hops joined: a response that redirects (3xx with a target) is followed by the first
 * later request of its target, which becomes the next hop of the same request.
 */
function redirectChains(responses: ImportedResponse[]): Chain[] {
  const chains: Chain[] = [];
  const waiting = new Map<string, Chain>();
  for (const r of responses) {
    const key = withoutFragment(r.url);
    let chain = waiting.get(key);
    if (chain) waiting.delete(key);
    else {
      chain = { requestId: `import-${chains.length + 1}`, hops: [] };
      chains.push(chain);
    }
    chain.hops.push(r);
    const location = r.redirectTo ?? r.responseHeaders["Location"] ?? r.responseHeaders["location"];
    if (r.status !== null && r.status >= 300 && r.status < 400 && location && URL.canParse(location, r.url)) {
      waiting.set(withoutFragment(new URL(location, r.url).href), chain);
    }
  }
  return chains;
}

function withoutFragment(url: string): string {
  const i = url.indexOf("#");
  return i < 0 ? url : url.slice(0, i);
}

/** What the archive stores for a hop's body: its bytes, filler of its stated size, or why none. */
function storedBody(r: ImportedResponse, redirect: boolean): { body: { sha256: string; data: Buffer } | null; bodyMissing: string | null; placeholder: boolean } {
  const none = (why: string | null) => ({ body: null, bodyMissing: why, placeholder: false });
  if (r.status === null) return none(null);
  if (redirect || NO_BODY_STATUS.has(r.status) || r.method === "HEAD") return none(null);
  let data = r.body;
  let placeholder = false;
  if (!data) {
    if (r.bodySize === null) return none("the imported file has neither the body nor its size");
    // Spaces in text, so that a parser reading the filler finds nothing; zeros in anything else.
    data = Buffer.alloc(r.bodySize, isTextMime(r.mimeType) ? 0x20 : 0);
    placeholder = r.bodySize > 0;
  }
  return { body: { sha256: createHash("sha256").update(data).digest("hex"), data }, bodyMissing: null, placeholder };
}

/** A body as the text a page could name URLs in (HTML, CSS, scripts, JSON, XML, SVG), or null. */
export function readableText(body: Buffer | null, mime: string): string | null {
  return body && /html|css|javascript|ecmascript|json|xml|svg/.test(mime) ? body.toString("utf8") : null;
}

function typeFromMime(mime: string): string {
  if (/css/.test(mime)) return "Stylesheet";
  if (/javascript|ecmascript/.test(mime)) return "Script";
  if (/^image\//.test(mime)) return "Image";
  if (/^font\/|woff|opentype|truetype/.test(mime)) return "Font";
  if (/^(audio|video)\//.test(mime)) return "Media";
  if (/json|xml/.test(mime)) return "Fetch";
  return "Other";
}

/** The Network and Page events of a recording, as the profiler would have seen them for these entries. */
function cdpEvents(archive: ArchiveEntry[], mainUrl: string, subframes: Subframe[]): CdpEvent[] {
  const events: { at: number; event: CdpEvent }[] = [{ at: 0, event: { method: "Page.frameNavigated", params: { frame: { id: MAIN_FRAME, url: mainUrl, loaderId: null } } } }];
  // The graph builder knows a frame's parent, and so where its document hangs, from these.
  for (const f of subframes) events.push({ at: f.at, event: { method: "Page.frameAttached", params: { frameId: f.frameId, parentFrameId: f.parentFrameId } } });
  for (const e of archive) {
    events.push({
      at: e.times.start,
      event: {
        method: "Network.requestWillBeSent",
        params: {
          requestId: e.requestId, loaderId: null, documentURL: mainUrl, frameId: e.frameId, type: e.resourceType,
          request: { url: e.url, method: e.method, headers: e.requestHeaders, initialPriority: e.priority.initial },
          timestamp: e.times.start, wallTime: e.times.wallTime,
          initiator: { type: e.initiator.type, url: e.initiator.url ?? undefined, lineNumber: e.initiator.lineNumber ?? undefined },
        },
      },
    });
    if (e.response && e.times.response !== null) {
      events.push({ at: e.times.response, event: { method: "Network.responseReceived", params: { requestId: e.requestId, frameId: e.frameId, type: e.resourceType, timestamp: e.times.response, response: { url: e.url, ...e.response } } } });
    }
    const end = e.times.end ?? e.times.start;
    if (e.failure) events.push({ at: end, event: { method: "Network.loadingFailed", params: { requestId: e.requestId, timestamp: end, errorText: e.failure.errorText, canceled: false } } });
    else if (!e.redirectedTo) events.push({ at: end, event: { method: "Network.loadingFinished", params: { requestId: e.requestId, timestamp: end, encodedDataLength: e.sizes.encodedDataLength ?? 0 } } });
  }
  return events.sort((a, b) => a.at - b.at).map((x) => x.event);
}
