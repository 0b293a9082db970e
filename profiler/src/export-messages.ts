import type { HttpMessage } from "./http-message.js";
import type { ArchiveEntry } from "./recording.js";

/** Headers a decoded body no longer matches, or that only HTTP/2 and HTTP/3 carry. */
const NOT_EXPORTED = new Set(["content-encoding", "transfer-encoding", "content-length", "connection", "keep-alive"]);

/**
 * An archived request and its response as the HTTP/1.1 messages other tools' archives keep: the
 * body as the page received it (decoded) with a Content-Length to match, no content or transfer
 * coding left to undo, and HTTP/2's pseudo-headers dropped for Host. Entries with no response
 * (failures), cache hits (nothing crossed the wire) and data: URLs have none: null.
 */
export function exportedMessages(e: ArchiveEntry, body: Buffer): { request: HttpMessage; response: HttpMessage } | null {
  if (!e.response || e.failure || e.fromCache || !/^https?:/.test(e.url)) return null;
  const url = new URL(e.url);
  const requestHeaders: [string, string][] = [["Host", url.host]];
  for (const [k, v] of Object.entries(e.requestHeaders)) {
    if (k.startsWith(":") || k.toLowerCase() === "host" || NOT_EXPORTED.has(k.toLowerCase())) continue;
    for (const line of v.split("\n")) requestHeaders.push([k, line]);
  }
  const post = e.postData === null ? Buffer.alloc(0) : Buffer.from(e.postData, "utf8");
  if (post.length) requestHeaders.push(["Content-Length", String(post.length)]);
  const responseHeaders: [string, string][] = [];
  for (const [k, v] of Object.entries(e.response.headers)) {
    if (k.startsWith(":") || NOT_EXPORTED.has(k.toLowerCase())) continue;
    for (const line of v.split("\n")) responseHeaders.push([k, line]);
  }
  responseHeaders.push(["Content-Length", String(body.length)]);
  return {
    request: { firstLine: `${e.method} ${url.pathname}${url.search} HTTP/1.1`, headers: requestHeaders, body: post },
    response: { firstLine: `HTTP/1.1 ${e.response.status} ${e.response.statusText || reason(e.response.status)}`, headers: responseHeaders, body },
  };
}

/** The bytes of a whole message, as Web Page Replay keeps them. */
export function messageBytes(m: HttpMessage): Buffer {
  const head = [m.firstLine, ...m.headers.map(([k, v]) => `${k}: ${v}`)].join("\r\n") + "\r\n\r\n";
  return Buffer.concat([Buffer.from(head, "latin1"), m.body]);
}

/** HTTP/2 carries no reason phrase; an HTTP/1.1 status line wants one. */
function reason(status: number): string {
  const phrases: Record<number, string> = { 200: "OK", 204: "No Content", 206: "Partial Content", 301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified", 307: "Temporary Redirect", 308: "Permanent Redirect", 404: "Not Found", 500: "Internal Server Error" };
  return phrases[status] ?? "Status";
}
