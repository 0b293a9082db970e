import type { Graph, GraphNode } from "@pagepath/graph-builder";

/** One line of the compare view's summary table. */
export interface SummaryRow {
  key: string;
  label: string;
  unit: "count" | "bytes" | "ms";
  a: number | null;
  b: number | null;
  /** B minus A; null when either is missing (a page that never fired load). */
  delta: number | null;
}

type Spec = [key: string, label: string, unit: SummaryRow["unit"], value: (g: Graph) => number | null];

const SPECS: Spec[] = [
  ["resources", "resources", "count", (g) => fetches(g).length],
  ["bytes", "bytes", "bytes", (g) => fetches(g).reduce((sum, n) => sum + (n.resource?.transferSize ?? 0), 0)],
  ["domains", "domains", "count", (g) => new Set(fetches(g).flatMap((n) => hostOf(n.resource?.url))).size],
  ["cp-ms", "critical path", "ms", (g) => g.criticalPath.totalMs],
  ["cp-nodes", "critical path nodes", "count", (g) => g.criticalPath.nodes.length],
  ...(["network", "script", "parse", "css", "other"] as const).map((part): Spec => [`cp-${part}`, `critical path: ${part}`, "ms", (g) => g.criticalPath.breakdown[part]]),
  ["dcl", "DOMContentLoaded (recorded)", "ms", (g) => g.recorded.domContentLoaded],
  ["load", "load (recorded)", "ms", (g) => g.recorded.load],
];

/**
 * Page-level figures of two graphs side by side. Fetches, bytes and domains are counted as the index
 * counts them (viewer/src/server/site-summary.ts), so the two views agree on the same graph.
 */
export function summaryRows(a: Graph, b: Graph): SummaryRow[] {
  return SPECS.map(([key, label, unit, value]) => {
    const [va, vb] = [value(a), value(b)];
    return { key, label, unit, a: va, b: vb, delta: va === null || vb === null ? null : vb - va };
  });
}

/** Resource nodes plus HTML documents (a document's first download chunk). */
function fetches(g: Graph): GraphNode[] {
  return g.nodes.filter((n) => n.kind === "resource" || (n.kind === "download" && n.chunk?.index === 0));
}

function hostOf(url: string | undefined): string[] {
  try {
    return url ? [new URL(url).hostname] : [];
  } catch {
    return [];
  }
}
