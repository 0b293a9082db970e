/**
 * A fetch's phases as DevTools' network waterfall splits them, from CDP's ResourceTiming. The graph
 * builder and the Chromium replay client both write them (graph.md, run-result.md), each on its own
 * ms clock, so this takes the clock as a function of CDP's monotonic seconds.
 */
import type { ArchiveEntry, ResourceTiming } from "./recording.js";

/** One phase, ms on the caller's clock; `end >= start`. */
export interface PhaseSpan {
  start: number;
  end: number;
}

/**
 * The phases in the order they happen; null when the fetch had no such phase (no DNS lookup on a
 * reused connection) or the client cannot tell. Laid end to end: each starts where an earlier one
 * ended or later, so a reader can draw them side by side without overlap.
 */
export interface RequestPhases {
  /** From the request being issued to its first network activity: DevTools' Queueing and Stalled. */
  queued: PhaseSpan | null;
  dns: PhaseSpan | null;
  /** Opening the connection, up to the TLS handshake (DevTools' Initial connection, less SSL). */
  connect: PhaseSpan | null;
  ssl: PhaseSpan | null;
  /** Writing the request. */
  send: PhaseSpan | null;
  /** Waiting for the first byte of the response (DevTools' Waiting for server response, TTFB). */
  wait: PhaseSpan | null;
  /** From the first response byte to the last (DevTools' Content Download). */
  download: PhaseSpan | null;
}

export const PHASE_NAMES = ["queued", "dns", "connect", "ssl", "send", "wait", "download"] as const;
export type PhaseName = (typeof PHASE_NAMES)[number];

const round = (x: number) => Math.round(x * 1000) / 1000;

/**
 * Clamps spans given in phase order so that none starts before the one before it ended: the browser
 * stamps ResourceTiming on other threads than requestWillBeSent, and a span a microsecond early
 * would otherwise overlap its neighbour in the waterfall.
 */
export function layEndToEnd(raw: Record<PhaseName, PhaseSpan | null>, from: number, until: number | null): RequestPhases {
  let cursor = from;
  const out = {} as RequestPhases;
  for (const name of PHASE_NAMES) {
    const s = raw[name];
    if (!s) {
      out[name] = null;
      continue;
    }
    const cap = (x: number) => (until === null ? x : Math.min(x, Math.max(until, cursor)));
    const start = cap(Math.max(cursor, s.start));
    const end = cap(Math.max(start, s.end));
    out[name] = { start: round(start), end: round(end) };
    cursor = end;
  }
  return out;
}

/**
 * One archive entry's (one hop's) phases, or null when its response carries no ResourceTiming
 * (memory-cache hits, failures before a response, imports without timing). `ms` maps CDP's
 * monotonic seconds to the caller's clock.
 */
export function requestPhases(e: ArchiveEntry, ms: (monotonicS: number) => number): RequestPhases | null {
  const t: ResourceTiming | null | undefined = e.response?.timing;
  if (!t || t.requestTime <= 0) return null;
  const at = (rel: number) => ms(t.requestTime + rel / 1000);
  const has = (x: number) => x >= 0;
  const span = (a: number, b: number): PhaseSpan | null => (has(a) && has(b) ? { start: at(a), end: at(b) } : null);
  const firstNetwork = [t.dnsStart, t.connectStart, t.sendStart].find(has) ?? 0;
  const headers = has(t.receiveHeadersStart) ? t.receiveHeadersStart : t.receiveHeadersEnd;
  const issued = ms(e.times.start);
  const end = e.times.end === null ? null : ms(e.times.end);
  return layEndToEnd(
    {
      queued: { start: issued, end: at(firstNetwork) },
      dns: span(t.dnsStart, t.dnsEnd),
      // QUIC's handshake is its TLS handshake: Chromium stamps sslStart at connectStart, so connect is empty.
      connect: span(t.connectStart, has(t.sslStart) ? t.sslStart : t.connectEnd),
      ssl: span(t.sslStart, t.sslEnd),
      send: span(t.sendStart, t.sendEnd),
      wait: span(t.sendEnd, headers),
      download: has(headers) && end !== null ? { start: at(headers), end } : null,
    },
    issued,
    end,
  );
}
