/**
 * The timeline's hover text for a row: what DevTools' network tooltip and Timing tab tell of a
 * request, as far as the graph holds it. The graph keeps no headers (the recording's archive does),
 * so the text says where they are rather than leaving them out silently.
 */
import type { GraphNode } from "@pagepath/graph-builder";
import { bytes } from "./format.js";
import { nodeSummary } from "./node-details.js";
import type { SiteData } from "./site-data.js";
import { phaseDurations } from "./timeline-phases.js";
import type { ShownRun } from "./timeline-runs.js";

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

/** The hover text of a row: the node, and for a fetch its request, phases (recorded and per shown run) and headers. */
export function rowSummary(n: GraphNode, site: SiteData, runs: ShownRun[]): string {
  const lines = [nodeSummary(n, site)];
  if (!n.resource) return lines[0]!;
  lines.push(...requestLines(n));
  // Graphs made before phases were recorded have none; that is not the same as "not timed".
  lines.push(...phaseLines("recorded phases", n.resource.phases));
  for (const s of runs) if (s.timing.has(n.id)) lines.push(...phaseLines(`${s.name} phases`, s.phases.get(n.id) ?? null));
  lines.push("request and response headers: not in the graph (see the recording's archive.json)");
  return lines.join("\n");
}
