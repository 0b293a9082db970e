import type { ResourceTiming } from "./recording.js";

type P = Record<string, any>;

/** HAR's phase durations (ms; -1 or absent: did not happen), as an entry's `timings` gives them. */
export interface HarTimings {
  blocked?: number;
  dns?: number;
  connect?: number;
  ssl?: number;
  send?: number;
  wait?: number;
  receive?: number;
}

/**
 * CDP's ResourceTiming rebuilt from HAR's phases, laid end to end from the request's start as HAR
 * 1.2 defines them (blocked, dns, connect, send, wait, receive; `ssl` is inside `connect`), so
 * that the server-delay estimate reads an imported entry as it reads a recorded one. HAR does not
 * split the response headers' arrival, so both header marks are the end of `wait`.
 */
export function resourceTiming(t: HarTimings, requestTime: number): { timing: ResourceTiming; headersMs: number; endMs: number } {
  const len = (x: number | undefined) => (typeof x === "number" && x >= 0 ? x : -1);
  const at = (x: number) => Math.max(0, x);
  let cursor = at(len(t.blocked));
  const dns = len(t.dns);
  const dnsStart = dns >= 0 ? cursor : -1;
  cursor += at(dns);
  const connect = len(t.connect);
  const ssl = len(t.ssl);
  const connectStart = connect >= 0 ? cursor : -1;
  cursor += at(connect);
  const connectEnd = connect >= 0 ? cursor : -1;
  const sslOk = connect >= 0 && ssl >= 0 && ssl <= connect;
  const sendStart = cursor;
  cursor += at(len(t.send));
  const sendEnd = cursor;
  cursor += at(len(t.wait));
  const headersMs = cursor;
  cursor += at(len(t.receive));
  return {
    timing: {
      requestTime,
      dnsStart, dnsEnd: dns >= 0 ? dnsStart + dns : -1,
      connectStart, connectEnd,
      sslStart: sslOk ? connectEnd - ssl : -1, sslEnd: sslOk ? connectEnd : -1,
      sendStart, sendEnd,
      receiveHeadersStart: headersMs, receiveHeadersEnd: headersMs,
    },
    headersMs,
    endMs: cursor,
  };
}

/** True when `timings` holds at least one phase that happened: a cache hit or a failure has none. */
export function hasTimings(t: P | undefined): t is HarTimings {
  return !!t && ["send", "wait", "receive"].some((k) => typeof t[k] === "number" && t[k] >= 0);
}
