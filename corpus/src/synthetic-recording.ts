import { createHash } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

export interface SyntheticResource {
  /** A path on the origin, or a whole URL for another origin. */
  path: string;
  /** The body; by default `bytes` of one letter. */
  body?: Buffer;
  mimeType: string;
  bytes: number;
  /** The server's recorded processing delay; null = not measurable (the replay draws one). */
  delayMs: number | null;
  resourceType?: string;
}

/**
 * Writes into `dir` a recording with just what the replay server reads (archive.json and
 * bodies/), for tests and benchmarks that need exact sizes and processing delays; bodies default
 * to their size in one letter.
 */
export function writeSyntheticRecording(dir: string, origin: string, resources: SyntheticResource[]): string {
  mkdirSync(join(dir, "bodies"), { recursive: true });
  const archive = resources.map((r, i) => {
    const body = r.body ?? Buffer.alloc(r.bytes, 65 + (i % 26));
    const sha256 = createHash("sha256").update(body).digest("hex");
    writeFileSync(join(dir, "bodies", sha256), body);
    return {
      id: `${1000 + i}`,
      url: r.path.includes("://") ? r.path : `${origin}${r.path}`,
      method: "GET",
      requestHeaders: {},
      resourceType: r.resourceType ?? "Other",
      priority: { initial: "High", final: "High" },
      times: { start: i, response: i, end: i, wallTime: 0 },
      response: { status: 200, statusText: "OK", headers: { "content-type": r.mimeType }, mimeType: r.mimeType, protocol: "h2" },
      fromCache: null,
      sizes: { encodedDataLength: body.length, bodySize: body.length },
      body: { sha256, size: body.length, base64Encoded: true },
      serverDelay: { ms: r.delayMs, method: r.delayMs === null ? "not-measurable" : "ttfb-minus-handshake-rtt", rttMs: null },
    };
  });
  writeFileSync(join(dir, "archive.json"), JSON.stringify(archive, null, 1));
  return dir;
}
