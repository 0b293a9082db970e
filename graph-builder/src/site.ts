import { getDomain } from "tldts";

/**
 * A URL's schemeful site, as Chromium keys its network state by it: the scheme and the registrable
 * domain (eTLD+1 by the Public Suffix List, which tldts carries), or the host where there is none
 * (an IP address, localhost). The URL itself when it does not parse.
 */
export function schemefulSite(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url;
  }
  return `${u.protocol}//${getDomain(u.hostname) ?? u.hostname}`;
}
