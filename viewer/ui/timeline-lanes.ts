import type { Graph, GraphNode, ResourceInfo } from "@pagepath/graph-builder";
import type { ConnectionRecord } from "@pagepath/results";
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

/** "https://a.test:443" and "https://a.test" are one origin; opaque ones stay as they are. */
function sameOrigin(a: string): string {
  try {
    return new URL(a).origin;
  } catch {
    return a;
  }
}

/**
 * A replay's connections, per origin. The run result format does not say which connection carried
 * which node, so a replay's fetches are grouped by origin and the lane names the run's connections.
 */
function byRunConnections(origin: string, nodes: GraphNode[], connections: ConnectionRecord[]): Lane {
  const mine = connections.filter((c) => sameOrigin(c.origin) === sameOrigin(origin));
  const which = mine.map((c) => `#${c.id} (${c.protocol}/${c.transport})`).join(", ");
  return { label: `${origin}: run connection${mine.length === 1 ? "" : "s"} ${which || "none"}`, nodes };
}

function fetchLanes(fetches: GraphNode[], by: Lanes, frameOf: (n: GraphNode) => string, run: ConnectionRecord[] | null): Lane[] {
  if (by === "frame") return d3.groups(fetches, frameOf).map(([url, nodes]) => ({ label: `network: frame ${url}`, nodes }));
  // An origin's connection lanes stay next to each other.
  return d3.groups(fetches, (n) => n.resource!.origin).flatMap(([origin, nodes]) => {
    if (by !== "connection") return [{ label: `network: ${origin}`, nodes }];
    return run ? [byRunConnections(origin, nodes, run)] : byConnection(nodes);
  });
}

/**
 * The timeline's lanes, each in order of first activity: fetches (resources and document
 * downloads) grouped as chosen, then below them each frame's main-thread work. With a replay's
 * connections, "by connection" means the replay's connections rather than the recording's.
 */
export function timelineLanes(graph: Graph, by: Lanes, run: ConnectionRecord[] | null = null): Lane[] {
  const frameUrl = new Map(graph.frames.map((f) => [f.id, f.url]));
  const frameOf = (n: GraphNode) => frameUrl.get(n.frameId) ?? n.frameId;
  const nodes = [...graph.nodes].sort((a, b) => a.start - b.start || a.end - b.end);
  const work = d3.groups(nodes.filter((n) => !n.resource), frameOf).map(([url, ns]) => ({ label: `main thread: ${url}`, nodes: ns }));
  return [...fetchLanes(nodes.filter((n) => n.resource), by, frameOf, run), ...work];
}
