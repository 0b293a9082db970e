import type { ArchiveEntry, ResourceTiming, ServerDelayMethod } from "./recording.js";

/**
 * Server processing delay per response, from the browser's own timing (no packet capture).
 *
 * PCP (seed 001 §3.4.1) measured the gap between the server's ACK of a request and the first
 * response byte in a tcpdump trace. From inside the browser the nearest quantity is the time from
 * the request's last byte sent (sendEnd) to the first response header byte (receiveHeadersStart):
 * one network round trip plus the server's delay. The round trip is taken from the handshake of
 * the connection that carried the response (TCP connect or QUIC handshake = one RTT); a reused
 * connection inherits the RTT measured when it was opened; a connection never seen opening
 * borrows the smallest RTT of its origin, then of the page. The delay is ttfb - rtt, floored at 0.
 */
export function estimateServerDelays(entries: ArchiveEntry[]): void {
  const connectionRtt = new Map<string, number>();
  const originRtt = new Map<string, number>();
  let pageRtt: number | null = null;
  const keepMin = (map: Map<string, number>, key: string, v: number) => {
    const old = map.get(key);
    if (old === undefined || v < old) map.set(key, v);
  };

  for (const e of entries) {
    const t = e.response?.timing;
    const rtt = t ? handshakeRtt(t) : null;
    if (rtt === null) continue;
    if (e.response?.connectionId) keepMin(connectionRtt, e.response.connectionId, rtt);
    keepMin(originRtt, originOf(e.url), rtt);
    pageRtt = pageRtt === null ? rtt : Math.min(pageRtt, rtt);
  }

  for (const e of entries) {
    const t = e.response?.timing;
    const ttfb = t ? timeToFirstByte(t) : null;
    if (!e.response || e.fromCache || ttfb === null) {
      e.serverDelay = { ms: null, method: "not-measurable", rttMs: null };
      continue;
    }
    let rtt: number | null = t ? handshakeRtt(t) : null;
    let method: ServerDelayMethod = "ttfb-minus-handshake-rtt";
    if (rtt === null && e.response.connectionId && connectionRtt.has(e.response.connectionId)) {
      rtt = connectionRtt.get(e.response.connectionId)!;
      method = "ttfb-minus-connection-rtt";
    }
    if (rtt === null) {
      rtt = originRtt.get(originOf(e.url)) ?? pageRtt;
      method = rtt === null ? "ttfb-no-rtt" : "ttfb-minus-origin-rtt";
    }
    e.serverDelay = { ms: round3(Math.max(0, ttfb - (rtt ?? 0))), method, rttMs: rtt === null ? null : round3(rtt) };
  }
}

/** One RTT from the handshake of a connection opened for this request, or null if it reused one. */
export function handshakeRtt(t: ResourceTiming): number | null {
  if (t.connectStart < 0 || t.connectEnd < 0) return null;
  // With TLS over TCP the TCP handshake ends where TLS starts; QUIC reports its handshake as connect.
  const end = t.sslStart >= 0 && t.sslStart >= t.connectStart ? t.sslStart : t.connectEnd;
  const rtt = end - t.connectStart;
  return rtt >= 0 ? rtt : null;
}

export function timeToFirstByte(t: ResourceTiming): number | null {
  const first = t.receiveHeadersStart >= 0 ? t.receiveHeadersStart : t.receiveHeadersEnd;
  if (first < 0 || t.sendEnd < 0) return null;
  return Math.max(0, first - t.sendEnd);
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

function round3(x: number): number {
  return Math.round(x * 1000) / 1000;
}
