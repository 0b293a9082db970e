import type { Graph } from "@pagepath/graph-builder";

/**
 * Another build's ids for the same graph: node and frame ids are numbered per build, so a comparison
 * that matched by id would pass on a copy and fail on a second recording.
 */
export function renumbered(g: Graph, prefix: string): Graph {
  const id = (x: string): string => prefix + x;
  const maybe = (x: string | null): string | null => (x === null ? null : id(x));
  return {
    ...g,
    root: id(g.root),
    mainFrame: id(g.mainFrame),
    frames: g.frames.map((f) => ({ ...f, id: id(f.id), parentId: maybe(f.parentId), firstDownload: maybe(f.firstDownload), lastDownload: maybe(f.lastDownload), dcl: id(f.dcl), load: id(f.load) })),
    nodes: g.nodes.map((n) => ({ ...n, id: id(n.id), frameId: id(n.frameId) })),
    edges: g.edges.map((e) => ({ ...e, from: id(e.from), to: id(e.to) })),
    criticalPath: { ...g.criticalPath, nodes: g.criticalPath.nodes.map(id) },
    ...(g.lcpCandidates ? { lcpCandidates: g.lcpCandidates.map((c) => ({ ...c, sizes: c.sizes.map((s) => ({ ...s, after: maybe(s.after) })), waitsFor: c.waitsFor.map(id) })) } : {}),
  };
}

/** The graph without one node, its edges and the LCP candidates that wait for it (the node must not be on the critical path or name a frame's marker). */
export function withoutNode(g: Graph, nodeId: string): Graph {
  const lcpCandidates = g.lcpCandidates
    ?.filter((c) => !c.waitsFor.includes(nodeId))
    .map((c) => ({ ...c, sizes: c.sizes.filter((s) => s.after !== nodeId) }))
    .filter((c) => c.sizes.length > 0);
  return { ...g, nodes: g.nodes.filter((n) => n.id !== nodeId), edges: g.edges.filter((e) => e.from !== nodeId && e.to !== nodeId), ...(lcpCandidates ? { lcpCandidates } : {}) };
}

/** The graph with one node's recorded start and end moved by `ms`. */
export function shiftedNode(g: Graph, nodeId: string, ms: number): Graph {
  return { ...g, nodes: g.nodes.map((n) => (n.id === nodeId ? { ...n, start: n.start + ms, end: n.end + ms } : n)) };
}
