import type { ArchiveEntry, CdpEvent, ResourceTiming } from "./recording.js";
import { estimateServerDelays } from "./server-delay.js";

type P = Record<string, any>; // CDP params are protocol JSON; fields are read defensively below

/**
 * Folds the CDP Network log into one archive entry per request and redirect hop, in request order.
 * Bodies are attached separately (they come from Network.getResponseBody, not from events).
 */
export function buildArchive(events: CdpEvent[]): ArchiveEntry[] {
  const entries: ArchiveEntry[] = [];
  const current = new Map<string, ArchiveEntry>(); // requestId -> latest hop
  const hops = new Map<string, number>();
  const extraResponseHeaders = new Map<string, P>();
  const extraRequestHeaders = new Map<string, P>();

  for (const { method, params: p } of events as { method: string; params: P }[]) {
    switch (method) {
      case "Network.requestWillBeSent": {
        const prev = current.get(p.requestId);
        if (prev && p.redirectResponse) {
          applyResponse(prev, p.redirectResponse, p.timestamp);
          prev.redirectedTo = p.request.url;
          prev.times.end = p.timestamp;
          prev.sizes.encodedDataLength = p.redirectResponse.encodedDataLength ?? null;
        }
        const n = hops.get(p.requestId) ?? 0;
        hops.set(p.requestId, n + 1);
        const entry = newEntry(hopId(p.requestId, n), p);
        entries.push(entry);
        current.set(p.requestId, entry);
        break;
      }
      case "Network.requestWillBeSentExtraInfo":
        extraRequestHeaders.set(p.requestId, p.headers ?? {});
        break;
      case "Network.responseReceivedExtraInfo":
        extraResponseHeaders.set(p.requestId, p.headers ?? {});
        break;
      case "Network.requestServedFromCache": {
        const e = current.get(p.requestId);
        if (e) e.fromCache = "memory";
        break;
      }
      case "Network.resourceChangedPriority": {
        const e = current.get(p.requestId);
        if (e) e.priority.final = p.newPriority;
        break;
      }
      case "Network.responseReceived": {
        const e = current.get(p.requestId);
        if (e) applyResponse(e, p.response, p.timestamp);
        break;
      }
      case "Network.loadingFinished": {
        const e = current.get(p.requestId);
        if (e) {
          e.times.end = p.timestamp;
          e.sizes.encodedDataLength = p.encodedDataLength ?? null;
        }
        break;
      }
      case "Network.loadingFailed": {
        const e = current.get(p.requestId);
        if (e) {
          e.times.end = p.timestamp;
          e.failure = { errorText: p.errorText ?? "", canceled: !!p.canceled, blockedReason: p.blockedReason ?? null };
        }
        break;
      }
    }
  }

  // The ExtraInfo events carry the headers as they crossed the wire (cookies included); prefer them.
  // They are keyed by requestId only, so they belong to the last hop of a redirect chain.
  for (const e of current.values()) {
    const req = extraRequestHeaders.get(e.requestId);
    if (req) e.requestHeaders = { ...e.requestHeaders, ...stringify(req) };
    const res = extraResponseHeaders.get(e.requestId);
    if (res && e.response) e.response.headers = { ...e.response.headers, ...stringify(res) };
  }
  estimateServerDelays(entries);
  return entries;
}

/** An archive entry's id: its request's, with "#n" for the n-th redirect hop after the first. */
export function hopId(requestId: string, n: number): string {
  return n === 0 ? requestId : `${requestId}#${n}`;
}

/** Archive entries grouped by request: a redirect chain's hops share one requestId, in order. */
export function requestChains(archive: ArchiveEntry[], keep: (e: ArchiveEntry) => boolean = () => true): Map<string, ArchiveEntry[]> {
  const chains = new Map<string, ArchiveEntry[]>();
  for (const e of archive) {
    if (!keep(e)) continue;
    const chain = chains.get(e.requestId);
    if (chain) chain.push(e);
    else chains.set(e.requestId, [e]);
  }
  return chains;
}

/** Each archive entry's initiator as CDP sent it, with its whole stack and async parents, by entry id. */
export function recordedInitiators(events: CdpEvent[]): Map<string, P> {
  const out = new Map<string, P>();
  for (const e of events) {
    if (e.method !== "Network.requestWillBeSent") continue;
    const p = e.params as P;
    let n = 0;
    while (out.has(hopId(p.requestId, n))) n++;
    out.set(hopId(p.requestId, n), p.initiator);
  }
  return out;
}

function newEntry(id: string, p: P): ArchiveEntry {
  const init = p.initiator ?? {};
  return {
    id,
    requestId: p.requestId,
    url: p.request.url,
    method: p.request.method,
    frameId: p.frameId ?? null,
    loaderId: p.loaderId ?? null,
    resourceType: p.type ?? "Other",
    initiator: archivedInitiator(init),
    priority: { initial: p.request.initialPriority ?? null, final: p.request.initialPriority ?? null },
    requestHeaders: stringify(p.request.headers ?? {}),
    postData: p.request.postData ?? null,
    times: { start: p.timestamp, response: null, end: null, wallTime: p.wallTime ?? null },
    response: null,
    fromCache: null,
    redirectedTo: null,
    sizes: { encodedDataLength: null, bodySize: null },
    body: null,
    bodyMissing: null,
    failure: null,
    serverDelay: { ms: null, method: "not-measurable", rttMs: null },
  };
}

function applyResponse(e: ArchiveEntry, r: P, timestamp: number): void {
  e.times.response = timestamp;
  e.response = {
    status: r.status,
    statusText: r.statusText ?? "",
    headers: stringify(r.headers ?? {}),
    mimeType: r.mimeType ?? "",
    protocol: r.protocol ?? null,
    remoteAddress: r.remoteIPAddress ? `${r.remoteIPAddress}:${r.remotePort ?? ""}` : null,
    connectionId: r.connectionId !== undefined ? String(r.connectionId) : null,
    connectionReused: r.connectionReused ?? null,
    timing: r.timing ? pickTiming(r.timing) : null,
  };
  if (r.fromDiskCache) e.fromCache = "disk";
  else if (r.fromPrefetchCache) e.fromCache = "prefetch";
  else if (r.fromServiceWorker) e.fromCache = "service-worker";
}

export function pickTiming(t: P): ResourceTiming {
  const n = (k: string) => (typeof t[k] === "number" ? t[k] : -1);
  return {
    requestTime: n("requestTime"),
    dnsStart: n("dnsStart"), dnsEnd: n("dnsEnd"),
    connectStart: n("connectStart"), connectEnd: n("connectEnd"),
    sslStart: n("sslStart"), sslEnd: n("sslEnd"),
    sendStart: n("sendStart"), sendEnd: n("sendEnd"),
    receiveHeadersStart: n("receiveHeadersStart"), receiveHeadersEnd: n("receiveHeadersEnd"),
  };
}

/** Walks the stack and its async parents (setTimeout, Promise.then...) to the first frame with a URL. */
/** A CDP Network.Initiator as the archive keeps it (HAR's `_initiator` is the same object). */
export function archivedInitiator(init: P): ArchiveEntry["initiator"] {
  return {
    type: init.type ?? "other",
    url: init.url ?? firstStackUrl(init.stack) ?? null,
    lineNumber: init.lineNumber ?? null,
    stackFunctions: stackFunctions(init.stack),
  };
}

function firstStackUrl(stack: P | undefined): string | undefined {
  for (let s = stack; s; s = s.parent) {
    for (const f of s.callFrames ?? []) if (f.url) return f.url;
  }
  return undefined;
}

/** Function names through the async chain, with the async boundary ("setTimeout") in between. */
function stackFunctions(stack: P | undefined): string[] {
  const out: string[] = [];
  for (let s = stack; s; s = s.parent) {
    if (s !== stack && s.description) out.push(`<${s.description}>`);
    for (const f of s.callFrames ?? []) out.push(f.functionName || "(anonymous)");
  }
  return out;
}

function stringify(h: P): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h)) out[k] = String(v);
  return out;
}
