import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";

/** What a site serves beyond its files: per-URL status, headers, delays and stalls. */
export interface RouteConfig {
  status?: number;
  headers?: Record<string, string | string[]>;
  /** Server processing delay before the response starts, in ms (overrides the host's). */
  delayMs?: number;
  /** Never answer: for pages whose load event must not fire. */
  hang?: boolean;
  /** Serve this file (path under the host's folder or mounts) instead of the one the URL names. */
  file?: string;
  /** Serve this literal body. */
  body?: string;
}

export interface HostConfig {
  /** Notes on the host's part in the site: main origin, CDN, fonts, third party. */
  role: string;
  /**
   * Server processing delay for every response of this host, in ms: a fixed value, or [min, max]
   * from which each path gets its own delay, the same on every run (a hash of the path, not a
   * random draw), so recordings of the site can be compared.
   */
  delayMs?: number | [number, number];
  /** Headers added to every response of this host (e.g. Access-Control-Allow-Origin for an API). */
  headers?: Record<string, string | string[]>;
}

/** Files of a folder served under a path prefix of a host, after the host's own folder. */
export interface MountConfig {
  host: string;
  /** URL path prefix, starting and ending with "/". */
  at: string;
  /** Folder, absolute or relative to the site directory. */
  dir: string;
}

export interface SiteConfig {
  description: string;
  /** Page to load, e.g. https://www.fixture.test/index.html */
  entry: string;
  hosts: Record<string, HostConfig>;
  /** Keyed by host + path (+ query), e.g. "www.fixture.test/redirect-me". */
  routes: Record<string, RouteConfig>;
  mounts: MountConfig[];
  cacheControl: string;
}

export function readSiteConfig(siteDir: string): SiteConfig {
  const file = join(siteDir, "site.json");
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(file, "utf8"));
  } catch (e) {
    throw new Error(`${file}: cannot read site description: ${(e as Error).message}`);
  }
  const c = raw as Partial<SiteConfig>;
  if (typeof c.entry !== "string") throw new Error(`${file}: "entry" must be the URL of the page to load`);
  if (!c.hosts || typeof c.hosts !== "object") throw new Error(`${file}: "hosts" must map host names to their roles`);
  for (const [host, h] of Object.entries(c.hosts)) {
    const d = h.delayMs;
    const ok = d === undefined || (typeof d === "number" && d >= 0) || (Array.isArray(d) && d.length === 2 && d[0] >= 0 && d[1] >= d[0]);
    if (!ok) throw new Error(`${file}: hosts.${host}.delayMs must be a number of ms or [min, max] with 0 <= min <= max`);
  }
  const mounts = (c.mounts ?? []).map((m, i) => {
    if (!m || typeof m.host !== "string" || !(m.host in c.hosts!)) throw new Error(`${file}: mounts[${i}].host must be one of the site's hosts`);
    if (typeof m.at !== "string" || !m.at.startsWith("/") || !m.at.endsWith("/")) throw new Error(`${file}: mounts[${i}].at must be a path starting and ending with "/"`);
    if (typeof m.dir !== "string") throw new Error(`${file}: mounts[${i}].dir must be a folder`);
    return { host: m.host, at: m.at, dir: isAbsolute(m.dir) ? m.dir : join(siteDir, m.dir) };
  });
  return {
    description: c.description ?? "",
    entry: c.entry,
    hosts: c.hosts,
    routes: c.routes ?? {},
    mounts,
    cacheControl: c.cacheControl ?? "public, max-age=3600",
  };
}

/** The processing delay a host's server takes before answering `path`, in ms. */
export function hostDelayMs(host: HostConfig | undefined, path: string): number {
  const d = host?.delayMs;
  if (d === undefined) return 0;
  if (typeof d === "number") return d;
  // FNV-1a: a cheap, stable spread of paths over [min, max]
  let h = 0x811c9dc5;
  for (let i = 0; i < path.length; i++) h = Math.imul(h ^ path.charCodeAt(i), 0x01000193) >>> 0;
  return Math.round(d[0] + (h / 0xffffffff) * (d[1] - d[0]));
}
