import { hopId, recordedInitiators, requestChains } from "./archive.js";
import { extractLifecycle } from "./lifecycle.js";
import type { ArchiveEntry, CdpEvent, Recording, TwoPasses } from "./recording.js";
import { estimateServerDelays } from "./server-delay.js";
import { traceRequests, type TraceRequest } from "./trace-network.js";

type P = Record<string, any>;

/**
 * One recording from two loads of the same page (`pagepath profile --passes 2`):
 *
 * - the timing pass, recorded with Chromium's trace alone (and async stacks), which costs the page
 *   almost nothing: its trace, Page events, lifecycle and every request's ids and times;
 * - the content pass, recorded with the Network domain as a single pass is: response bodies,
 *   request and response headers, initiators with their async stacks.
 *
 * A request of the timing pass takes the content pass's request of the same method and URL
 * (fragment dropped), the n-th with the n-th, for everything but time (matchRequests). Requests
 * of one pass only are reported in the manifest and kept: the timing pass's without a body, the
 * content pass's placed into the timing pass (anchored), as some requests never reach the
 * renderer's trace (a dedicated worker's script is fetched by the browser).
 */
export function mergePasses(content: Recording, timing: Recording): Recording {
  const requests = traceRequests(timing.trace);
  const chains = [...requestChains(content.archive).values()].sort((a, b) => a[0]!.times.start - b[0]!.times.start);
  const { pairs, contentOnly } = matchRequests(requests, chains);
  const offset = timing.manifest.clock?.wallMinusMonotonicS;
  const wall = (at: number) => (offset === undefined ? null : Math.round((at + offset) * 1e6) / 1e6);
  // Ids the two loads gave the same thing: navigation requests are named by their loader.
  const loaders = new Map<string, string>();
  const frames = new Map<string, string>();
  for (const { t, c } of pairs) {
    if (!c) continue;
    if (t.resourceType === "Document" && c[0]!.loaderId) loaders.set(c[0]!.loaderId, t.requestId);
    if (c[0]!.frameId && t.frameId) frames.set(c[0]!.frameId, t.frameId);
  }

  const archive: ArchiveEntry[] = [];
  // Which content-pass entry each merged one came from, for its initiator's whole stack.
  const source = new Map<string, string>();
  const keep = (made: ArchiveEntry[], c: ArchiveEntry[] | null) => {
    made.forEach((e, i) => c?.[i] && source.set(e.id, c[i]!.id));
    archive.push(...made);
  };
  for (const { t, c } of pairs) keep(c ? retimed(t, c, frames, loaders, wall) : timingOnly(t, wall), c);
  const taken = new Set(archive.map((e) => e.requestId));
  const work = sameWork(content.trace, timing.trace);
  for (const c of contentOnly) keep(anchored(c, pairs, work, frames, loaders, taken, wall), c);
  archive.sort((a, b) => a.times.start - b.times.start);
  estimateServerDelays(archive);
  const used = new Set(archive.map((e) => e.body?.sha256).filter((s): s is string => !!s));
  const bodies = new Map([...content.bodies].filter(([sha]) => used.has(sha)));

  const initiators = recordedInitiators(content.events);
  const initiatorOf = (e: ArchiveEntry) => initiators.get(source.get(e.id) ?? "") ?? null;
  const events = [...timing.events.filter((e) => e.method.startsWith("Page.")), ...networkEvents(archive, requests, initiatorOf)];
  events.sort((a, b) => at(a) - at(b));
  const mainFrameId = timing.manifest.frameTree?.id ?? null;
  const font = timing.manifest.lifecycle.largestContentfulPaintElement?.font;
  const lifecycle = extractLifecycle(events, timing.trace, mainFrameId, font);

  const passes: TwoPasses = {
    content: { startedAt: content.manifest.startedAt, durationMs: content.manifest.durationMs, status: content.manifest.status, reason: content.manifest.reason },
    matchedRequests: pairs.filter((m) => m.c).length,
    timingOnly: pairs.filter((m) => !m.c).map((m) => m.t.hops[0]!.url),
    contentOnly: contentOnly.map((c) => c[0]!.url),
  };
  const failed = [timing, content].find((r) => r.manifest.status !== "complete");
  return {
    manifest: {
      ...timing.manifest,
      status: failed ? "incomplete" : "complete",
      reason: failed ? `${failed === timing ? "timing" : "content"} pass: ${failed.manifest.reason}` : null,
      files: { ...timing.manifest.files, events: true, archive: true },
      lifecycle,
      counts: {
        events: events.length,
        traceEvents: timing.trace?.length ?? 0,
        requests: archive.length,
        bodies: bodies.size,
        failedRequests: archive.filter((e) => e.failure).length,
      },
      passes,
    },
    events,
    trace: timing.trace,
    archive,
    bodies,
  };
}

interface Pair {
  t: TraceRequest;
  /** The content pass's request (its hops), or null when it made none like it. */
  c: ArchiveEntry[] | null;
}

/**
 * Pairs each timing-pass request with a content-pass one: first the same method and URL (fragment
 * dropped; a navigation's final URL, the others' first), in order; then, among those left, the same method, origin, path and type, in order,
 * as a page's query strings often hold a time or a random number that differs between loads.
 */
function matchRequests(requests: TraceRequest[], chains: ArchiveEntry[][]): { pairs: Pair[]; contentOnly: ArchiveEntry[][] } {
  const pairs: Pair[] = requests.map((t) => ({ t, c: null }));
  let left = chains;
  for (const key of [exactKey, pathKey]) {
    const queue = new Map<string, ArchiveEntry[][]>();
    for (const c of left) {
      // A navigation is known in both by its final URL (trace-network.ts), anything else by its first.
      const hop = c.at(-1)!.resourceType === "Document" ? c.at(-1)! : c[0]!;
      const k = key(hop.method, hop.url, c.at(-1)!.resourceType);
      (queue.get(k) ?? queue.set(k, []).get(k)!).push(c);
    }
    for (const p of pairs) {
      const hop = p.t.navigation ? p.t.hops.at(-1)! : p.t.hops[0]!;
      if (!p.c) p.c = queue.get(key(hop.method, hop.url, p.t.resourceType))?.shift() ?? null;
    }
    left = [...queue.values()].flat();
  }
  return { pairs, contentOnly: left.sort((a, b) => a[0]!.times.start - b[0]!.times.start) };
}

function exactKey(method: string, url: string): string {
  const i = url.indexOf("#");
  return `${method} ${i < 0 ? url : url.slice(0, i)}`;
}

function pathKey(method: string, url: string, resourceType: string): string {
  try {
    const u = new URL(url);
    return `${method} ${u.origin}${u.pathname} ${resourceType}`;
  } catch {
    return `${method} ${url} ${resourceType}`;
  }
}

/** The content pass's hops with the timing pass's ids and times. */
function retimed(t: TraceRequest, hops: ArchiveEntry[], frames: Map<string, string>, loaders: Map<string, string>, wall: (at: number) => number | null): ArchiveEntry[] {
  return hops.map((h, i) => {
    const final = i === hops.length - 1;
    const start = t.hops[i]?.at ?? t.hops.at(-1)!.at;
    // A redirect's response arrives as the next hop is sent.
    const next = t.hops[i + 1]?.at ?? null;
    const r = t.response;
    const failed = final && t.finish?.failed === true;
    return {
      ...h,
      id: hopId(t.requestId, i),
      requestId: t.requestId,
      // A worker's requests name no frame in the trace.
      frameId: t.frameId ?? (h.frameId ? frames.get(h.frameId) ?? h.frameId : null),
      loaderId: h.loaderId ? loaders.get(h.loaderId) ?? h.loaderId : null,
      priority: { ...t.priority },
      times: { start, response: final ? r?.at ?? null : next, end: final ? t.finish?.at ?? null : next, wallTime: wall(start) },
      response: final && h.response && r ? { ...h.response, protocol: r.protocol, connectionId: r.connectionId, connectionReused: r.connectionReused, timing: r.timing } : h.response,
      // The memory cache serves what the page itself loaded before (a repeated URL, data: URLs) in
      // both loads; the trace marks only the disk cache.
      fromCache: !final || h.fromCache === "memory" ? h.fromCache : r?.fromCache ? h.fromCache ?? "disk" : null,
      sizes: { ...h.sizes, encodedDataLength: final ? t.finish?.encodedDataLength ?? h.sizes.encodedDataLength : h.sizes.encodedDataLength },
      failure: failed ? h.failure ?? { errorText: "failed in the timing pass", canceled: false, blockedReason: null } : final ? null : h.failure,
      bodyMissing: final && !failed && h.failure ? `the content pass's request failed (${h.failure.errorText})` : h.bodyMissing,
      serverDelay: { ms: null, method: "not-measurable", rttMs: null },
    };
  });
}

/**
 * A request the timing pass's trace does not show (the browser, not the renderer, fetches a
 * dedicated worker's script): the content pass's, moved into the timing pass by the script work
 * it was sent from (sameWork) or else by as much as the last matched request the content pass sent
 * before it moved, so that it keeps its place and its own durations.
 */
function anchored(c: ArchiveEntry[], pairs: Pair[], work: SameWork, frames: Map<string, string>, loaders: Map<string, string>, taken: Set<string>, wall: (at: number) => number | null): ArchiveEntry[] {
  const start = c[0]!.times.start;
  let shift = 0;
  const inWork = work(start);
  if (inWork !== null) shift = inWork - start;
  else {
    let best = -Infinity;
    for (const { t, c: m } of pairs) {
      const s = m?.[0]!.times.start;
      if (s !== undefined && s <= start && s > best) [best, shift] = [s, t.hops[0]!.at - s];
    }
  }
  const requestId = taken.has(c[0]!.requestId) ? `${c[0]!.requestId}-content` : c[0]!.requestId;
  const move = (x: number | null) => (x === null ? null : x + shift);
  return c.map((h, i) => ({
    ...h,
    id: hopId(requestId, i),
    requestId,
    frameId: h.frameId ? frames.get(h.frameId) ?? h.frameId : null,
    loaderId: h.loaderId ? loaders.get(h.loaderId) ?? h.loaderId : null,
    times: { start: h.times.start + shift, response: move(h.times.response), end: move(h.times.end), wallTime: wall(h.times.start + shift) },
    response: h.response && { ...h.response, timing: h.response.timing && { ...h.response.timing, requestTime: h.response.timing.requestTime + shift } },
    serverDelay: { ms: null, method: "not-measurable", rttMs: null },
  }));
}

/** Maps a moment of the content pass into the timing pass, or null where it cannot. */
type SameWork = (at: number) => number | null;

const SCRIPT_WORK = new Set(["EvaluateScript", "v8.evaluateModule", "FunctionCall", "TimerFire", "EventDispatch", "FireAnimationFrame"]);

/**
 * The innermost piece of script work (a script's evaluation, a timer, an event handler) running
 * in the content pass at a moment, found again in the timing pass as the same kind of work on the
 * same script (its URL without the query), the n-th with the n-th: the moment maps to as far into it, within its length there.
 */
function sameWork(content: unknown[] | null, timing: unknown[] | null): SameWork {
  const pieces = (trace: unknown[] | null) => {
    const byKey = new Map<string, P[]>();
    for (const e of (trace ?? []) as P[]) {
      if (e.ph !== "X" || !SCRIPT_WORK.has(e.name) || typeof e.ts !== "number") continue;
      const d: P = e.args?.data ?? {};
      const url = d.url ?? d.scriptName;
      // A script's query string may differ between the loads (matchRequests' second key).
      const k = `${e.name} ${typeof url === "string" ? url.split("?")[0] : d.type ?? d.timerId ?? ""}`;
      (byKey.get(k) ?? byKey.set(k, []).get(k)!).push(e);
    }
    for (const list of byKey.values()) list.sort((a, b) => a.ts - b.ts);
    return byKey;
  };
  const a = pieces(content);
  const b = pieces(timing);
  return (at) => {
    const us = at * 1e6;
    let best: { k: string; i: number; dur: number } | null = null;
    for (const [k, list] of a) {
      list.forEach((e, i) => {
        const dur = e.dur ?? 0;
        if (e.ts <= us && us <= e.ts + dur && (!best || dur < best.dur)) best = { k, i, dur };
      });
    }
    if (!best) return null;
    const { k, i } = best as { k: string; i: number };
    const from = a.get(k)![i]!;
    const to = b.get(k)?.[i];
    if (!to) return null;
    return (to.ts + Math.min(us - from.ts, to.dur ?? 0)) / 1e6;
  };
}

/** A request the content pass did not make: what the trace says of it, without a body. */
function timingOnly(t: TraceRequest, wall: (at: number) => number | null): ArchiveEntry[] {
  return t.hops.map((hop, i) => {
    const final = i === t.hops.length - 1;
    const next = t.hops[i + 1] ?? null;
    const r = final ? t.response : null;
    return {
      id: hopId(t.requestId, i),
      requestId: t.requestId,
      url: hop.url,
      method: hop.method,
      frameId: t.frameId,
      loaderId: t.resourceType === "Document" ? t.requestId : null,
      resourceType: t.resourceType,
      initiator: { ...t.initiator },
      priority: { ...t.priority },
      requestHeaders: {},
      postData: null,
      times: { start: hop.at, response: final ? r?.at ?? null : next!.at, end: final ? t.finish?.at ?? null : next!.at, wallTime: wall(hop.at) },
      response: r
        ? { status: r.status, statusText: "", headers: r.headers, mimeType: r.mimeType, protocol: r.protocol, remoteAddress: null, connectionId: r.connectionId, connectionReused: r.connectionReused, timing: r.timing }
        : null,
      fromCache: r?.fromCache ? "disk" : null,
      redirectedTo: next?.url ?? null,
      sizes: { encodedDataLength: final ? t.finish?.encodedDataLength ?? null : null, bodySize: final ? t.finish?.decodedBodyLength ?? null : null },
      body: null,
      bodyMissing: final && !t.finish?.failed ? "the content pass did not make this request" : null,
      failure: final && t.finish?.failed ? { errorText: "failed in the timing pass", canceled: false, blockedReason: null } : null,
      serverDelay: { ms: null, method: "not-measurable", rttMs: null },
    };
  });
}

/**
 * The Network events the timing pass would have had, from the merged archive and the trace's
 * data chunks, initiators as the content pass recorded them (with their stacks): the graph builder reads a document's arrival from dataReceived (decoded bytes, so
 * a compressed chunk counts its share of the decoded body) and link preloads from requestWillBeSent.
 */
function networkEvents(archive: ArchiveEntry[], requests: TraceRequest[], initiatorOf: (e: ArchiveEntry) => P | null): CdpEvent[] {
  const byId = new Map(requests.map((t) => [t.requestId, t]));
  const out: CdpEvent[] = [];
  for (const e of archive) {
    const t = byId.get(e.requestId);
    out.push({
      method: "Network.requestWillBeSent",
      params: {
        requestId: e.requestId, loaderId: e.loaderId, frameId: e.frameId, type: e.resourceType,
        request: { url: e.url, method: e.method, headers: e.requestHeaders, initialPriority: e.priority.initial, isLinkPreload: t?.isLinkPreload ?? false },
        timestamp: e.times.start, wallTime: e.times.wallTime,
        initiator: initiatorOf(e) ?? { type: e.initiator.type, url: e.initiator.url ?? undefined, lineNumber: e.initiator.lineNumber ?? undefined },
      },
    });
    if (e.redirectedTo) continue;
    if (e.response && e.times.response !== null) {
      out.push({ method: "Network.responseReceived", params: { requestId: e.requestId, frameId: e.frameId, type: e.resourceType, timestamp: e.times.response, response: { url: e.url, ...e.response } } });
    }
    const chunks = t?.data ?? [];
    const wire = chunks.reduce((s, c) => s + c.encodedBytes, 0);
    const decoded = e.body?.size ?? t?.finish?.decodedBodyLength ?? wire;
    for (const c of chunks) {
      out.push({ method: "Network.dataReceived", params: { requestId: e.requestId, timestamp: c.at, dataLength: wire > 0 ? Math.round((c.encodedBytes * decoded) / wire) : 0, encodedDataLength: c.encodedBytes } });
    }
    const end = e.times.end ?? e.times.start;
    if (e.failure) out.push({ method: "Network.loadingFailed", params: { requestId: e.requestId, timestamp: end, errorText: e.failure.errorText, canceled: e.failure.canceled } });
    else out.push({ method: "Network.loadingFinished", params: { requestId: e.requestId, timestamp: end, encodedDataLength: e.sizes.encodedDataLength ?? 0 } });
  }
  return out;
}

/** An event's time: Network events carry monotonic seconds, Page events theirs where they have one. */
function at(e: CdpEvent): number {
  const p = e.params as P;
  return typeof p.timestamp === "number" ? p.timestamp : -Infinity;
}
