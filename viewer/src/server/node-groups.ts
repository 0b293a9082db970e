import type { Graph, GraphEdge, GraphNode } from "@pagepath/graph-builder";

/** Fewer like nodes than this read fine one by one; a group would only hide them. */
export const MIN_GROUP = 8;

/**
 * Markers every resource feeds (the load event, paints): a node whose only children are these is a
 * leaf for the reader, so it can hide in a group without hiding a dependency.
 */
export const MARKER_KINDS = new Set<GraphNode["kind"]>(["dcl", "load", "fcp", "lcp"]);

/** Like nodes drawn as one: siblings of one parent (sibling-groups.ts) or a chain (chain-groups.ts). */
export interface NodeGroup {
  id: string;
  label: string;
  members: string[];
}

/**
 * The graph with each of `groups` replaced by one node (a copy of its first member, so dot draws it
 * in its kind's colour and shape), edges into and out of members moved to it and deduplicated, and
 * the critical path running through the group where it ran through a member.
 */
export function collapseGroups(graph: Graph, groups: NodeGroup[]): Graph {
  if (!groups.length) return graph;
  const groupOf = new Map<string, NodeGroup>();
  for (const g of groups) for (const m of g.members) groupOf.set(m, g);
  const to = (id: string): string => groupOf.get(id)?.id ?? id;
  const nodes: GraphNode[] = [];
  const placed = new Set<string>();
  for (const n of graph.nodes) {
    const g = groupOf.get(n.id);
    if (!g) nodes.push(n);
    else if (!placed.has(g.id)) {
      placed.add(g.id);
      nodes.push({ ...n, id: g.id, label: g.label });
    }
  }
  const seen = new Set<string>();
  const edges: GraphEdge[] = [];
  for (const e of graph.edges) {
    const [from, too] = [to(e.from), to(e.to)];
    if (from === e.from && too === e.to) {
      edges.push(e);
      continue;
    }
    // Only moved edges merge: parallel edges between ungrouped nodes keep the routes the view pairs with them.
    const key = JSON.stringify([from, too]);
    if (from === too || seen.has(key)) continue;
    seen.add(key);
    edges.push({ ...e, from, to: too });
  }
  const path = graph.criticalPath.nodes.map(to).filter((id, i, all) => id !== all[i - 1]);
  return { ...graph, nodes, edges, criticalPath: { ...graph.criticalPath, nodes: path } };
}
