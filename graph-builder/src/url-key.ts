/**
 * URLs as the browser compares them when it matches a document, script or initiator: the fragment
 * dropped (it never reaches the network, yet the trace keeps it on the document's parse chunks and
 * scripts when the page was entered with one) and the rest normalised by the WHATWG URL parser
 * (host case, default port, percent-encoding). Anything that does not parse is compared as written.
 */
const keys = new Map<string, string>();

export function urlKey(url: string | null | undefined): string {
  if (!url) return "";
  let key = keys.get(url);
  if (key === undefined) {
    try {
      const u = new URL(url);
      u.hash = "";
      key = u.href;
    } catch {
      key = url;
    }
    keys.set(url, key);
  }
  return key;
}

export function sameUrl(a: string | null | undefined, b: string | null | undefined): boolean {
  return !!a && !!b && urlKey(a) === urlKey(b);
}

/** Whether a resource was fetched for `url`: its own URL or one it was redirected from. */
export function fetchedFor(resource: { url: string; redirects: string[] }, url: string): boolean {
  const key = urlKey(url);
  return urlKey(resource.url) === key || resource.redirects.some((r) => urlKey(r) === key);
}
