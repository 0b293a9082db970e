/**
 * The timeline's hover text for a row: what DevTools' network tooltip and Timing tab tell of a
 * request: what the graph holds, and the headers, which only the recording's archive keeps, once
 * the viewer has read them from it (or why it could not).
 */
import type { GraphNode } from "@pagepath/graph-builder";
import { bytes } from "./format.js";
import { nodeSummary } from "./node-details.js";
import type { SiteData } from "./site-data.js";
import { phaseDurations } from "./timeline-phases.js";
import type { ShownRun } from "./timeline-runs.js";
import type { GraphHeaders } from "../src/server/headers-api.js";

function requestLines(n: GraphNode): string[] {
  const r = n.resource!;
  const status = r.status === null ? "no response" : `${r.status}${r.protocol ? ` ${r.protocol}` : ""}`;
  const cache = r.fromCache ? ` (from ${r.fromCache} cache)` : "";
  return [
    `${r.method} ${status}${cache}`,
    `priority: ${r.priority ?? "unknown"}`,
    `initiator: ${r.initiatorType}${r.initiatorUrl ? ` ${r.initiatorUrl}` : ""}`,
    `size: ${bytes(r.transferSize)} encoded (on the wire), ${bytes(r.bodySize)} decoded`,
    ...(r.redirects.length ? [`redirected from: ${r.redirects.join(" → ")}`] : []),
  ];
}

function phaseLines(title: string, phases: Parameters<typeof phaseDurations>[0] | null | undefined): string[] {
  if (phases === undefined) return [];
  if (phases === null) return [`${title}: not timed`];
  return [`${title}:`, ...phaseDurations(phases).map((l) => `  ${l}`)];
}

function headerLines(id: string, headers: GraphHeaders | null): string[] {
  if (!headers) return ["headers: being read from the recording"];
  if (headers.missing) return [`headers: not available (${headers.missing})`];
  const h = headers.nodes[id];
  if (!h) return ["headers: none archived for this fetch"];
  const list = (title: string, hs: Record<string, string>) => [`${title}:`, ...Object.entries(hs).map(([k, v]) => `  ${k}: ${v.length > 120 ? `${v.slice(0, 117)}...` : v}`)];
  return [...list("request headers", h.request), ...(h.response ? list("response headers", h.response) : ["response headers: no response"])];
}

/** The hover text of a row: the node, and for a fetch its request, phases (recorded and per shown run) and headers. */
export function rowSummary(n: GraphNode, site: SiteData, runs: ShownRun[], headers: GraphHeaders | null = null): string {
  const lines = [nodeSummary(n, site)];
  if (!n.resource) return lines[0]!;
  lines.push(...requestLines(n));
  // Graphs made before phases were recorded have none; that is not the same as "not timed".
  lines.push(...phaseLines("recorded phases", n.resource.phases));
  for (const s of runs) if (s.timing.has(n.id)) lines.push(...phaseLines(`${s.name} phases`, s.phases.get(n.id) ?? null));
  lines.push(...headerLines(n.id, headers));
  return lines.join("\n");
}
