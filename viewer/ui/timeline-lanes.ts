import type { Graph, GraphNode, ResourceInfo } from "@pagepath/graph-builder";
import type { Lanes } from "./state.js";

export interface Lane {
  label: string;
  nodes: GraphNode[];
}

/** The host a fetch went to; opaque origins (data: URLs) serialise as "null", so their scheme names them. */
function host(r: ResourceInfo): string {
  return r.origin && r.origin !== "null" ? new URL(r.origin).host : r.url.slice(0, r.url.indexOf(":") + 1);
}

/**
 * One origin's fetches split by the connection they came over, labelled with the protocol it spoke.
 * Cache hits, data: URLs and graphs made before connections were recorded go to "no connection".
 */
function byConnection(fetches: GraphNode[]): Lane[] {
  return d3.groups(fetches, (n) => n.resource!.connection?.id ?? null).map(([id, nodes]) => {
    const where = host(nodes[0]!.resource!);
    if (id === null) return { label: `${where} (no connection)`, nodes };
    const protocol = nodes.find((n) => n.resource!.protocol)?.resource!.protocol;
    return { label: `${where} #${id}${protocol ? ` (${protocol})` : ""}`, nodes };
  });
}

function fetchLanes(fetches: GraphNode[], by: Lanes, frameOf: (n: GraphNode) => string): Lane[] {
  if (by === "frame") return d3.groups(fetches, frameOf).map(([url, nodes]) => ({ label: `network: frame ${url}`, nodes }));
  // An origin's connection lanes stay next to each other.
  return d3.groups(fetches, (n) => n.resource!.origin).flatMap(([origin, nodes]) => (by === "connection" ? byConnection(nodes) : [{ label: `network: ${origin}`, nodes }]));
}

/**
 * The timeline's lanes, each in order of first activity: fetches (resources and document
 * downloads) grouped as chosen, then below them each frame's main-thread work.
 */
export function timelineLanes(graph: Graph, by: Lanes): Lane[] {
  const frameUrl = new Map(graph.frames.map((f) => [f.id, f.url]));
  const frameOf = (n: GraphNode) => frameUrl.get(n.frameId) ?? n.frameId;
  const nodes = [...graph.nodes].sort((a, b) => a.start - b.start || a.end - b.end);
  const work = d3.groups(nodes.filter((n) => !n.resource), frameOf).map(([url, ns]) => ({ label: `main thread: ${url}`, nodes: ns }));
  return [...fetchLanes(nodes.filter((n) => n.resource), by, frameOf), ...work];
}
