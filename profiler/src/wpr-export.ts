import { gzipSync } from "node:zlib";
import { exportedMessages, messageBytes } from "./export-messages.js";
import type { ArchiveEntry } from "./recording.js";

/**
 * A recording as a Web Page Replay archive: its `Archive` (Requests by host and URL, each request
 * and response as raw HTTP/1.1 bytes in base64; the protocol each host negotiated; when it was
 * recorded) as gzip-compressed JSON, so that WPR's replay serves the page. No certificates: WPR
 * makes its own when it has none.
 */
export function toWpr(archive: ArchiveEntry[], body: (sha256: string) => Buffer, recordedAtMs: number): Buffer {
  const requests: Record<string, Record<string, { SerializedRequest: string; SerializedResponse: string }[]>> = {};
  const protocols: Record<string, string> = {};
  for (const e of archive) {
    const m = exportedMessages(e, e.body ? body(e.body.sha256) : Buffer.alloc(0));
    if (!m) continue;
    const host = new URL(e.url).host;
    const list = ((requests[host] ??= {})[e.url] ??= []);
    list.push({ SerializedRequest: messageBytes(m.request).toString("base64"), SerializedResponse: messageBytes(m.response).toString("base64") });
    if (e.response?.protocol) protocols[host] ??= e.response.protocol === "h2" ? "h2" : "http/1.1";
  }
  return gzipSync(JSON.stringify({ Requests: requests, Certs: {}, NegotiatedProtocol: protocols, DeterministicTimeSeedMs: Math.round(recordedAtMs), ServedSessionId: 0 }));
}
