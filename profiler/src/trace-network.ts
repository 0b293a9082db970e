import { pickTiming } from "./archive.js";
import type { ResourceTiming } from "./recording.js";

type P = Record<string, any>; // trace event args are Chromium's JSON; read defensively

/** One hop of a request as the trace saw it: a redirect sends the same requestId again. */
export interface TraceHop {
  url: string;
  method: string;
  /** Monotonic seconds (the trace's µs / 1e6, the clock of CDP's Network timestamps). */
  at: number;
}

/**
 * A request as Chromium's trace records it (devtools.timeline's Resource* events): what the
 * profiler's Network domain would have said about its timing, without the Network domain's cost
 * to the page (a protocol message built on the renderer's main thread for each event).
 */
export interface TraceRequest {
  requestId: string;
  /** A navigation (a frame's document, sent by the browser): only its last hop's URL is known. */
  navigation: boolean;
  frameId: string | null;
  /** As CDP's Network domain names it (the trace says "Other" for fetch() and XHR). */
  resourceType: string;
  hops: TraceHop[];
  priority: { initial: string | null; final: string | null };
  isLinkPreload: boolean;
  /** As the archive keeps an initiator; the trace's stack is the sending frame only, no async parents. */
  initiator: { type: string; url: string | null; lineNumber: number | null; stackFunctions: string[] };
  response: null | {
    at: number;
    status: number;
    mimeType: string;
    protocol: string | null;
    connectionId: string | null;
    connectionReused: boolean | null;
    fromCache: boolean;
    timing: ResourceTiming | null;
    headers: Record<string, string>;
  };
  /** Each ResourceReceivedData: when, and how many bytes came over the wire. */
  data: { at: number; encodedBytes: number }[];
  finish: null | { at: number; encodedDataLength: number | null; decodedBodyLength: number | null; failed: boolean };
}

/**
 * The trace's requests, in the order they were first sent. A navigation's ResourceSendRequest and
 * ResourceReceiveResponse are stamped in the renderer as it commits the navigation, after the
 * response came; the browser's ResourceWillSendRequest, one per redirect hop, says when each hop
 * was sent (CDP's requestWillBeSent has the same times), and its timing when its headers came. Only
 * a navigation's final URL is its own: the renderer names an earlier hop by its origin alone.
 */
export function traceRequests(trace: unknown[] | null): TraceRequest[] {
  const byId = new Map<string, TraceRequest>();
  const willSend = new Map<string, number[]>();
  // Processes write their events in their own order: take them in time order.
  const resourceEvents = ((trace ?? []) as P[]).filter((e) => typeof e.ts === "number" && typeof e.args?.data?.requestId === "string" && String(e.name).startsWith("Resource"));
  resourceEvents.sort((a, b) => a.ts - b.ts);
  for (const e of resourceEvents) {
    const d: P = e.args.data;
    const at = e.ts / 1e6;
    const r = byId.get(d.requestId);
    switch (e.name) {
      case "ResourceWillSendRequest":
        (willSend.get(d.requestId) ?? willSend.set(d.requestId, []).get(d.requestId)!).push(at);
        break;
      case "ResourceSendRequest": {
        const hop = { url: String(d.url ?? ""), method: String(d.requestMethod ?? "GET"), at: willSend.get(d.requestId)?.[r ? r.hops.length : 0] ?? at };
        if (r) {
          r.hops.push(hop);
          break;
        }
        byId.set(d.requestId, {
          requestId: d.requestId,
          navigation: willSend.has(d.requestId),
          frameId: d.frame || null,
          resourceType: cdpType(d),
          hops: [hop],
          priority: { initial: d.priority ?? null, final: d.priority ?? null },
          isLinkPreload: d.isLinkPreload === true,
          initiator: initiator(d),
          response: null,
          data: [],
          finish: null,
        });
        break;
      }
      case "ResourceChangePriority":
        if (r && d.priority) r.priority.final = d.priority;
        break;
      case "ResourceReceiveResponse":
        if (r) {
          const res = response(d, at);
          const t = res.timing;
          if (willSend.has(d.requestId) && t && t.requestTime > 0 && t.receiveHeadersEnd >= 0) res.at = Math.min(at, t.requestTime + t.receiveHeadersEnd / 1000);
          r.response = res;
        }
        break;
      case "ResourceReceivedData":
        if (r) r.data.push({ at, encodedBytes: Number(d.encodedDataLength ?? 0) });
        break;
      case "ResourceFinish":
        if (r) {
          r.finish = {
            at: typeof d.finishTime === "number" && d.finishTime > 0 ? d.finishTime : at,
            encodedDataLength: typeof d.encodedDataLength === "number" ? d.encodedDataLength : null,
            decodedBodyLength: typeof d.decodedBodyLength === "number" ? d.decodedBodyLength : null,
            failed: d.didFail === true,
          };
        }
        break;
    }
  }
  return [...byId.values()].sort((a, b) => a.hops[0]!.at - b.hops[0]!.at);
}

function response(d: P, at: number): NonNullable<TraceRequest["response"]> {
  const headers: Record<string, string> = {};
  for (const h of Array.isArray(d.headers) ? d.headers : []) if (h?.name) headers[h.name] = String(h.value ?? "");
  return {
    at,
    status: Number(d.statusCode ?? 0),
    mimeType: d.mimeType ?? "",
    protocol: d.protocol ?? null,
    connectionId: d.connectionId !== undefined ? String(d.connectionId) : null,
    connectionReused: typeof d.connectionReused === "boolean" ? d.connectionReused : null,
    fromCache: d.fromCache === true,
    timing: d.timing ? pickTiming(d.timing) : null,
    headers,
  };
}

function initiator(d: P): TraceRequest["initiator"] {
  const i: P = d.initiator ?? {};
  const stack: P[] = Array.isArray(d.stackTrace) ? d.stackTrace : [];
  return {
    type: i.type ?? "other",
    url: i.url ?? stack.find((f) => f.url)?.url ?? null,
    lineNumber: typeof i.lineNumber === "number" ? i.lineNumber : null,
    stackFunctions: stack.map((f) => f.functionName || "(anonymous)"),
  };
}

function cdpType(d: P): string {
  const fetchType = d.initiator?.fetchType;
  if (fetchType === "fetch") return "Fetch";
  if (fetchType === "xmlhttprequest") return "XHR";
  return d.resourceType ?? "Other";
}
