import { readFileSync } from "node:fs";
import { join } from "node:path";

/** What a fixture site serves beyond its files: per-URL status, headers, delays and stalls. */
export interface RouteConfig {
  status?: number;
  headers?: Record<string, string | string[]>;
  /** Server processing delay before the response starts, in ms. */
  delayMs?: number;
  /** Never answer: for pages whose load event must not fire. */
  hang?: boolean;
  /** Serve this file (path under the host's folder) instead of the one the URL names. */
  file?: string;
  /** Serve this literal body. */
  body?: string;
}

export interface SiteConfig {
  description: string;
  /** Page to load, e.g. https://www.fixture.test/index.html */
  entry: string;
  /** Host name -> notes on its role (main origin, CDN, fonts, third party). */
  hosts: Record<string, { role: string }>;
  /** Keyed by host + path (+ query), e.g. "www.fixture.test/redirect-me". */
  routes: Record<string, RouteConfig>;
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
  return {
    description: c.description ?? "",
    entry: c.entry,
    hosts: c.hosts,
    routes: c.routes ?? {},
    cacheControl: c.cacheControl ?? "public, max-age=3600",
  };
}
