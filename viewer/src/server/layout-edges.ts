import type { GraphEdge, GraphNode } from "@pagepath/graph-builder";

/** The shown nodes' edges and each node's longest-path depth, computed once for both questions below. */
export interface Ranking {
  nodes: GraphNode[];
  edges: GraphEdge[];
  depth: Map<string, number>;
}

export function rankGraph(nodes: GraphNode[], edges: GraphEdge[]): Ranking {
  const ids = new Set(nodes.map((n) => n.id));
  const shown = edges.filter((e) => ids.has(e.from) && ids.has(e.to));
  return { nodes, edges: shown, depth: longestPathDepth(nodes, shown) };
}

/**
 * The edges dot should route for a big graph: for each node only the edge from its deepest parent
 * (by longest-path depth). dot then ranks every node by its dependency depth as with all edges, but
 * every routed edge spans one rank, so it adds no virtual nodes: with all edges, the fan-in to the
 * load marker and the preload edges of a 2,300-node page made dot run for over five minutes. The
 * other edges all point forward in rank; the viewer draws them straight.
 */
export function depthTreeEdges({ edges, depth }: Ranking): GraphEdge[] {
  const best = new Map<string, GraphEdge>();
  for (const e of edges) {
    const kept = best.get(e.to);
    if (!kept || depth.get(e.from)! > depth.get(kept.from)!) best.set(e.to, e);
  }
  return [...best.values()];
}

/** Nodes dot would place with all edges routed: the graph's own plus one virtual node per rank an edge skips. */
export function rankedNodes({ nodes, edges, depth }: Ranking): number {
  return nodes.length + edges.reduce((sum, e) => sum + Math.max(0, depth.get(e.to)! - depth.get(e.from)! - 1), 0);
}

/** Depth of each node: 0 for sources, else one more than its deepest parent (the graph is a DAG). */
function longestPathDepth(nodes: GraphNode[], edges: GraphEdge[]): Map<string, number> {
  const indegree = new Map(nodes.map((n) => [n.id, 0]));
  const children = new Map<string, string[]>();
  for (const e of edges) {
    indegree.set(e.to, indegree.get(e.to)! + 1);
    const list = children.get(e.from);
    if (list) list.push(e.to);
    else children.set(e.from, [e.to]);
  }
  const depth = new Map(nodes.map((n) => [n.id, 0]));
  const ready = nodes.filter((n) => indegree.get(n.id) === 0).map((n) => n.id);
  while (ready.length) {
    const id = ready.pop()!;
    for (const c of children.get(id) ?? []) {
      depth.set(c, Math.max(depth.get(c)!, depth.get(id)! + 1));
      indegree.set(c, indegree.get(c)! - 1);
      if (indegree.get(c) === 0) ready.push(c);
    }
  }
  return depth;
}
