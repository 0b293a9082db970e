import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from "node:zlib";

/** An HTTP/1.x message as other tools' archives keep it: the first line, the headers in order, the body as sent. */
export interface HttpMessage {
  firstLine: string;
  headers: [string, string][];
  body: Buffer;
}

/** A whole HTTP/1.x message in bytes (Web Page Replay keeps each this way): lines, a blank line, the body. */
export function parseHttpMessage(bytes: Buffer): HttpMessage {
  const end = bytes.indexOf("\r\n\r\n");
  const head = (end < 0 ? bytes : bytes.subarray(0, end)).toString("latin1").split("\r\n");
  const headers: [string, string][] = [];
  for (const line of head.slice(1)) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return { firstLine: head[0] ?? "", headers, body: end < 0 ? Buffer.alloc(0) : bytes.subarray(end + 4) };
}

export function header(m: HttpMessage, name: string): string | null {
  const lower = name.toLowerCase();
  return m.headers.find(([k]) => k.toLowerCase() === lower)?.[1] ?? null;
}

/** CDP's headers object: a name given twice is one value of lines, as Chrome joins them. */
export function headerObject(headers: [string, string][]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of headers) out[k] = out[k] === undefined ? v : `${out[k]}\n${v}`;
  return out;
}

/** "GET /a?b HTTP/1.1" (or an absolute target, as a proxy receives it). */
export function requestLine(line: string): { method: string; target: string; version: string } | null {
  const m = /^([A-Z]+) (\S+)(?: (HTTP\/[\d.]+))?$/.exec(line.trim());
  return m ? { method: m[1]!, target: m[2]!, version: m[3] ?? "HTTP/1.0" } : null;
}

/** "HTTP/1.1 200 OK". */
export function statusLine(line: string): { version: string; status: number; statusText: string } | null {
  const m = /^(HTTP\/[\d.]+) (\d{3})(?: (.*))?$/.exec(line.trim());
  return m ? { version: m[1]!, status: Number(m[2]), statusText: m[3] ?? "" } : null;
}

/**
 * A response body as the page received it: chunked transfer coding removed, then the content
 * codings undone (gzip, deflate, br), as the profiler stores bodies. A coding that cannot be undone
 * leaves the bytes as they are and says why.
 */
export function decodedBody(m: HttpMessage): { body: Buffer; problem: string | null } {
  let body = m.body;
  if (/chunked/i.test(header(m, "transfer-encoding") ?? "")) {
    const unchunked = dechunk(body);
    if (unchunked === null) return { body, problem: "its chunked body is malformed" };
    body = unchunked;
  }
  const codings = (header(m, "content-encoding") ?? "").split(",").map((c) => c.trim().toLowerCase()).filter((c) => c && c !== "identity");
  for (const coding of codings.reverse()) {
    try {
      body = decode(coding, body);
    } catch (e) {
      return { body, problem: `its ${coding} body cannot be decoded: ${(e as Error).message}` };
    }
  }
  return { body, problem: null };
}

function decode(coding: string, body: Buffer): Buffer {
  if (coding === "gzip" || coding === "x-gzip") return gunzipSync(body);
  if (coding === "br") return brotliDecompressSync(body);
  if (coding === "deflate") {
    // RFC 9110's deflate is zlib-wrapped; some servers send it raw.
    try {
      return inflateSync(body);
    } catch {
      return inflateRawSync(body);
    }
  }
  throw new Error(`unknown content coding "${coding}"`);
}

/** RFC 9112 §7.1: size lines in hex, each chunk, a zero-size last chunk, trailers ignored. */
function dechunk(body: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf("\r\n", at);
    if (eol < 0) return null;
    const size = parseInt(body.subarray(at, eol).toString("latin1").split(";")[0]!.trim(), 16);
    if (!Number.isFinite(size) || size < 0) return null;
    if (size === 0) return Buffer.concat(parts);
    const start = eol + 2;
    if (start + size > body.length) return null;
    parts.push(body.subarray(start, start + size));
    at = start + size + 2;
  }
}
