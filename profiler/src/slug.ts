import { createHash } from "node:crypto";
import type { Conditions } from "./recording.js";

/**
 * A directory name for a URL's recording under some conditions: readable (host, path and, unless
 * the conditions are the defaults, what they are), safe on any file system (no separators, no
 * dot-dot, bounded length), and unique (a short hash of the URL and the conditions). A load under
 * other conditions is another recording, so it must not be taken for this one nor written over it.
 * Under default conditions the name is what it was before names carried conditions, so that
 * recordings made then keep their names.
 */
export function recordingName(url: string, conditions?: Conditions): string {
  let readable: string;
  try {
    const u = new URL(url);
    readable = `${u.hostname}${u.port ? "_" + u.port : ""}${u.pathname === "/" ? "" : u.pathname}`;
  } catch {
    readable = url;
  }
  const page = safe(readable, 80) || "page";
  const key = conditions && !isDefault(conditions) ? conditionsKey(conditions) : null;
  const hash = createHash("sha256").update(key === null ? url : `${url}\n${key}`).digest("hex").slice(0, 8);
  return key === null ? `${page}-${hash}` : `${page}-${safe(conditionsLabel(conditions!), 60)}-${hash}`;
}

/** The conditions as one string, the same for equal conditions whatever the order their fields were set in. */
export function conditionsKey(c: Conditions): string {
  const n = c.network;
  const d = c.device;
  return JSON.stringify([
    c.cpuThrottlingRate,
    n && [n.name, n.latencyMs, n.downloadKbps, n.uploadKbps],
    d && [d.name, d.width, d.height, d.deviceScaleFactor, d.mobile, d.userAgent ?? null],
  ]);
}

function isDefault(c: Conditions): boolean {
  return c.cpuThrottlingRate === 1 && c.network === null && c.device === null;
}

/** "cpu4_fast-3g_iPhone 15 Pro", or "" for the defaults: what a reader needs to tell recordings apart. */
export function conditionsLabel(c: Conditions): string {
  const n = c.network;
  return [
    c.cpuThrottlingRate === 1 ? null : `cpu${c.cpuThrottlingRate}`,
    n === null ? null : n.name === "custom" ? `net${n.latencyMs}ms-${n.downloadKbps}k-${n.uploadKbps}k` : n.name,
    c.device?.name ?? null,
  ]
    .filter((part) => part !== null)
    .join("_");
}

function safe(text: string, max: number): string {
  return text
    .replace(/[^A-Za-z0-9._-]+/g, "_")
    .replace(/\.{2,}/g, "_")
    .replace(/^[._]+|[._]+$/g, "")
    .slice(0, max);
}
