import { createHash } from "node:crypto";

/**
 * A directory name for a URL's recording: readable (host and path), safe on any file system
 * (no separators, no dot-dot, bounded length), and unique (a short hash of the whole URL).
 */
export function recordingName(url: string): string {
  let readable: string;
  try {
    const u = new URL(url);
    readable = `${u.hostname}${u.port ? "_" + u.port : ""}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    readable = url;
  }
  const safe = readable
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/\.{2,}/g, "_")
    .replace(/^[._]+|[._]+$/g, "")
    .slice(0, 80);
  const hash = createHash("sha256").update(url).digest("hex").slice(0, 8);
  return `${safe || "page"}-${hash}`;
}
