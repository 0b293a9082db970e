import { recordedInitiators } from "./archive.js";
import type { ArchiveEntry, CdpEvent, RecordingManifest } from "./recording.js";
import { isTextMime } from "./text-body.js";

type P = Record<string, any>;

export interface HarSource {
  manifest: RecordingManifest;
  events: CdpEvent[];
  archive: ArchiveEntry[];
}

/**
 * HAR 1.2 of a recording, with Chrome's own extensions (_initiator with its full stack, _priority,
 * _resourceType, _fromCache, _connectionId) so DevTools' importer shows initiators and priorities,
 * plus pagepath's _serverDelayMs. Bodies are included: text as-is, anything else base64.
 */
export function toHar(src: HarSource, body: (sha256: string) => Buffer): P {
  const { manifest, events, archive } = src;
  const initiators = recordedInitiators(events);
  const lc = manifest.lifecycle;
  const pageStart = lc.navigationStartWallTime !== null ? new Date(lc.navigationStartWallTime * 1000) : new Date(manifest.startedAt);
  const entries = archive
    .filter((e) => !e.url.startsWith("data:"))
    .map((e) => entry(e, initiators.get(e.id) ?? null, body));
  return {
    log: {
      version: "1.2",
      creator: { name: "pagepath", version: manifest.tool.version },
      browser: { name: "Chromium", version: manifest.browser.product.replace(/^[^/]*\//, "") },
      pages: [
        {
          startedDateTime: pageStart.toISOString(),
          id: "page_1",
          title: manifest.finalUrl ?? manifest.url,
          pageTimings: { onContentLoad: lc.domContentLoaded ?? -1, onLoad: lc.load ?? -1 },
        },
      ],
      entries,
      comment: manifest.status === "complete" ? "" : `incomplete recording: ${manifest.reason}`,
    },
  };
}

function entry(e: ArchiveEntry, initiator: P | null, body: (sha256: string) => Buffer): P {
  const r = e.response;
  const t = r?.timing ?? null;
  const totalMs = e.times.end !== null ? (e.times.end - e.times.start) * 1000 : 0;
  const timings = t ? harTimings(t, e, totalMs) : { blocked: 0, dns: -1, connect: -1, ssl: -1, send: 0, wait: 0, receive: round(totalMs) };
  const time = ["blocked", "dns", "connect", "send", "wait", "receive"].reduce((s, k) => s + Math.max(0, (timings as P)[k]), 0);
  const started = e.times.wallTime !== null ? new Date(e.times.wallTime * 1000).toISOString() : new Date(0).toISOString();
  const httpVersion = harVersion(r?.protocol ?? null);
  return {
    pageref: "page_1",
    startedDateTime: started,
    time: round(time),
    request: {
      method: e.method,
      url: e.url,
      httpVersion,
      cookies: [],
      headers: headerList(e.requestHeaders),
      queryString: queryString(e.url),
      ...(e.postData !== null ? { postData: { mimeType: e.requestHeaders["Content-Type"] ?? e.requestHeaders["content-type"] ?? "", text: e.postData } } : {}),
      headersSize: -1,
      bodySize: e.postData !== null ? Buffer.byteLength(e.postData) : 0,
    },
    response: {
      status: r?.status ?? 0,
      statusText: r?.statusText ?? (e.failure?.errorText ?? ""),
      httpVersion,
      cookies: [],
      headers: headerList(r?.headers ?? {}),
      content: content(e, body),
      redirectURL: e.redirectedTo ?? "",
      headersSize: -1,
      bodySize: e.fromCache ? 0 : e.sizes.bodySize ?? -1,
      _transferSize: e.sizes.encodedDataLength ?? 0,
      ...(e.failure ? { _error: e.failure.errorText } : {}),
    },
    cache: {},
    timings,
    serverIPAddress: r?.remoteAddress?.replace(/:\d*$/, "").replace(/^\[|\]$/g, "") ?? "",
    connection: r?.connectionId ?? "",
    // An initiator an import guessed is not Chrome's: left out, as the file it came from had none.
    _initiator: e.initiator.inferred ? undefined : (initiator ?? { type: e.initiator.type, url: e.initiator.url ?? undefined }),
    _priority: e.priority.final,
    _resourceType: e.resourceType.toLowerCase(),
    _fromCache: e.fromCache ?? undefined,
    _connectionId: r?.connectionId ?? undefined,
    _serverDelayMs: e.serverDelay.ms,
  };
}

function harTimings(t: NonNullable<NonNullable<ArchiveEntry["response"]>["timing"]>, e: ArchiveEntry, totalMs: number): P {
  const span = (a: number, b: number) => (a >= 0 && b >= 0 ? round(b - a) : -1);
  const firstNet = [t.dnsStart, t.connectStart, t.sendStart].find((x) => x >= 0) ?? 0;
  const headersAt = t.receiveHeadersStart >= 0 ? t.receiveHeadersStart : t.receiveHeadersEnd;
  const receiveFrom = t.receiveHeadersEnd >= 0 ? t.receiveHeadersEnd : headersAt;
  const endMs = e.times.end !== null ? (e.times.end - t.requestTime) * 1000 : receiveFrom;
  return {
    blocked: round(firstNet),
    dns: span(t.dnsStart, t.dnsEnd),
    connect: span(t.connectStart, t.connectEnd),
    ssl: span(t.sslStart, t.sslEnd),
    send: Math.max(0, span(t.sendStart, t.sendEnd)),
    wait: Math.max(0, span(t.sendEnd, headersAt)),
    receive: round(Math.max(0, Math.min(endMs, totalMs + firstNet) - receiveFrom)),
  };
}

function content(e: ArchiveEntry, body: (sha256: string) => Buffer): P {
  const mimeType = e.response?.mimeType ?? "x-unknown";
  if (!e.body) return { size: 0, mimeType, ...(e.bodyMissing ? { comment: e.bodyMissing } : {}) };
  const data = body(e.body.sha256);
  return isTextMime(mimeType)
    ? { size: data.length, mimeType, text: data.toString("utf8") }
    : { size: data.length, mimeType, text: data.toString("base64"), encoding: "base64" };
}

function harVersion(protocol: string | null): string {
  if (!protocol) return "";
  if (protocol.startsWith("http/")) return protocol.toUpperCase();
  return protocol;
}

function headerList(h: Record<string, string>): { name: string; value: string }[] {
  const out: { name: string; value: string }[] = [];
  for (const [name, value] of Object.entries(h)) for (const v of value.split("\n")) out.push({ name, value: v });
  return out;
}

function queryString(url: string): { name: string; value: string }[] {
  try {
    return [...new URL(url).searchParams].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function round(x: number): number {
  return Math.round(x * 1000) / 1000;
}
