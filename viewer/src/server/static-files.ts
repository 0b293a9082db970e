import { createReadStream, statSync } from "node:fs";
import { extname } from "node:path";
import type { ServerResponse } from "node:http";

const TYPES: Record<string, string> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".map": "application/json; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
  ".txt": "text/plain; charset=utf-8",
};

/** Streams a file that the caller has already checked is one it may serve; 404 if it is not a file. */
export function sendFile(res: ServerResponse, path: string): void {
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) return sendError(res, 404, "not found");
    size = st.size;
  } catch {
    return sendError(res, 404, "not found");
  }
  res.writeHead(200, { "content-type": TYPES[extname(path)] ?? "application/octet-stream", "content-length": size, "x-content-type-options": "nosniff" });
  createReadStream(path).pipe(res);
}

export function sendJson(res: ServerResponse, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(200, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body), "cache-control": "no-store" });
  res.end(body);
}

export function sendError(res: ServerResponse, status: number, message: string): void {
  const body = JSON.stringify({ error: message });
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "content-length": Buffer.byteLength(body) });
  res.end(body);
}
