import type { Graph, GraphNode } from "@pagepath/graph-builder";
import { MARKER_KINDS, MIN_GROUP, type NodeGroup } from "./node-groups.js";
import { what } from "./sibling-groups.js";

/**
 * Chains among the `shown` nodes (and outside `taken`) to draw as one node: runs of one kind in one
 * frame, each node the only child but markers of the one before, at least MIN_GROUP long. The main
 * frame's renderings form such a run, hundreds long on a page that keeps loading images, and each
 * adds a rank: the graph grows wider than any screen. Parents a member has besides the one before
 * (the parse chunk every rendering waits for) become parents of the group, so no dependency is lost.
 */
export function chainGroups(graph: Graph, shown: Set<string>, taken: Set<string>): NodeGroup[] {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const children = new Map<string, Set<string>>();
  for (const e of graph.edges) {
    if (!shown.has(e.from) || !shown.has(e.to) || MARKER_KINDS.has(byId.get(e.to)!.kind)) continue;
    const set = children.get(e.from);
    if (set) set.add(e.to);
    else children.set(e.from, new Set([e.to]));
  }
  const eligible = (n: GraphNode | undefined): n is GraphNode => n !== undefined && shown.has(n.id) && !taken.has(n.id) && !MARKER_KINDS.has(n.kind) && n.id !== graph.root;
  const next = new Map<string, string>();
  const hasPrev = new Set<string>();
  for (const [from, kids] of children) {
    if (kids.size !== 1) continue;
    const [a, b] = [byId.get(from), byId.get([...kids][0]!)];
    if (!eligible(a) || !eligible(b) || a.kind !== b.kind || a.frameId !== b.frameId || (a.excluded === null) !== (b.excluded === null)) continue;
    next.set(a.id, b.id);
    hasPrev.add(b.id);
  }
  const out: NodeGroup[] = [];
  for (const start of next.keys()) {
    if (hasPrev.has(start)) continue;
    const members = [start];
    for (let id = next.get(start); id !== undefined; id = next.get(id)) members.push(id);
    if (members.length < MIN_GROUP) continue;
    const first = byId.get(start)!;
    out.push({ id: `chain:${start}`, label: `${members.length.toLocaleString("en-US")} ${what(first, members.length)} in a chain`, members });
  }
  return out;
}
