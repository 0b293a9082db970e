import type { LcpElementSummary } from "./run-result.js";

/**
 * A run result's LCP element from a recording's (Chromium's last candidate) or a graph's `lcp`
 * marker: the fields both have, without the text's font, so the two clients' can be compared.
 */
export function lcpElementSummary(e: LcpElementSummary | null | undefined): LcpElementSummary | null {
  return e ? { type: e.type, nodeName: e.nodeName, url: e.url, size: e.size } : null;
}
