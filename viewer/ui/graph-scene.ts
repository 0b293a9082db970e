import type { Graph, GraphEdge, GraphNode } from "@pagepath/graph-builder";
import type { Layout, LayoutCluster, LayoutEdge } from "../src/server/api.js";
import type { GroupedLayout } from "../src/server/layout.js";

/**
 * What the graph view draws, in layout coordinates, computed once per layout and collapse choice.
 * Pure (no DOM), so the canvas on screen and the exported SVG draw the same thing.
 */
export interface Scene {
  width: number;
  height: number;
  clusters: LayoutCluster[];
  nodes: SceneNode[];
  edges: SceneEdge[];
}

export interface SceneNode {
  id: string;
  x: number;
  y: number;
  width: number;
  height: number;
  shape: "box" | "diamond" | "octagon";
  color: string;
  critical: boolean;
  excluded: boolean;
  label: string;
  /** Graph nodes this one stands for: itself, or the members of a collapsed frame, timer chain or group of like nodes. */
  members: string[];
  /** Set on a collapsed group of like nodes (siblings, a chain): drawn as a stack, its label readable at any zoom. */
  grouped?: true;
}

export interface SceneEdge {
  from: string;
  to: string;
  /** SVG path data in layout coordinates, ending where the arrowhead's tip goes. */
  path: string;
  tip: [number, number];
  /** Unit vector the arrow points along at its tip. */
  dir: [number, number];
  /** Routed by dot; else drawn straight (big graphs route only a depth tree; collapsed groups). */
  routed: boolean;
  critical: boolean;
  inferred: boolean;
  /** Graph edges this one stands for (several when a collapsed group merges them). */
  rules: string[];
}

/** A set of graph nodes drawn as one box: a frame's subtree of frames, or a chain of timers. */
export interface Group {
  id: string;
  label: string;
  members: Set<string>;
  /** Frames whose cluster boxes the group replaces. */
  frames: string[];
  /** Where the box goes: the frame's cluster, or the members' bounding box. */
  box: { x: number; y: number; width: number; height: number };
}

const LABEL_CHARS = 30;

export function buildScene(layout: Layout & Partial<Pick<GroupedLayout, "nodeGroups">>, graph: Graph, groups: Group[]): Scene {
  const byId = new Map(graph.nodes.map((n) => [n.id, n]));
  const critical = new Set(graph.criticalPath.nodes);
  const likeGroups = new Map((layout.nodeGroups ?? []).filter((s) => s.collapsed).map((s) => [s.id, s]));
  const likeOf = new Map<string, string>();
  for (const s of likeGroups.values()) for (const m of s.members) likeOf.set(m, s.id);
  const groupOf = new Map<string, Group>();
  // A collapsed frame hides the groups nested in it: the biggest group claims its members first.
  const drawn = [...groups].sort((a, b) => b.members.size - a.members.size).filter((g) => {
    if ([...g.members].some((m) => groupOf.has(m))) return false;
    for (const m of g.members) groupOf.set(m, g);
    return true;
  });
  const nodes: SceneNode[] = [];
  for (const n of layout.nodes) {
    const s = likeGroups.get(n.id);
    if (s) {
      // A frame or timer group collapsed around a group of like nodes takes the whole of it.
      if (!groupOf.has(s.members[0]!)) nodes.push({ id: n.id, x: n.x, y: n.y, width: n.width, height: n.height, shape: shapeOf(n.shape), color: n.color, critical: s.members.some((m) => critical.has(m)), excluded: Boolean(byId.get(s.members[0]!)?.excluded), label: s.label, members: s.members, grouped: true });
      continue;
    }
    if (groupOf.has(n.id)) continue;
    const g = byId.get(n.id);
    nodes.push({ id: n.id, x: n.x, y: n.y, width: n.width, height: n.height, shape: shapeOf(n.shape), color: n.color, critical: critical.has(n.id), excluded: Boolean(g?.excluded), label: shortLabel(g), members: [n.id] });
  }
  for (const g of drawn) {
    const b = g.box;
    nodes.push({ id: g.id, x: b.x + b.width / 2, y: b.y + b.height / 2, width: Math.min(b.width, 220), height: Math.min(b.height, 44), shape: "octagon", color: "#555555", critical: [...g.members].some((m) => critical.has(m)), excluded: false, label: g.label, members: [...g.members] });
  }
  const hiddenClusters = new Set(drawn.flatMap((g) => g.frames));
  return {
    width: layout.width,
    height: layout.height,
    clusters: layout.clusters.filter((c) => !hiddenClusters.has(c.frameId)),
    nodes,
    edges: sceneEdges(layout, graph, nodes, (id) => groupOf.get(id)?.id ?? likeOf.get(id) ?? id),
  };
}

/** `drawnAs` names the scene node a graph node is drawn in: a group holding it, else itself. */
function sceneEdges(layout: Layout, graph: Graph, nodes: SceneNode[], drawnAs: (id: string) => string): SceneEdge[] {
  const pos = new Map(nodes.map((n) => [n.id, n]));
  const routes = new Map<string, LayoutEdge[]>();
  for (const e of layout.edges) {
    const key = `${e.from}\u0000${e.to}`;
    routes.set(key, [...(routes.get(key) ?? []), e]);
  }
  const cp = graph.criticalPath.nodes;
  const criticalPairs = new Set(cp.slice(1).map((to, i) => `${cp[i]}\u0000${to}`));
  const merged = new Map<string, SceneEdge>();
  const out: SceneEdge[] = [];
  for (const e of graph.edges) {
    const from = drawnAs(e.from);
    const to = drawnAs(e.to);
    const a = pos.get(from);
    const b = pos.get(to);
    if (!a || !b || from === to) continue;
    const critical = criticalPairs.has(`${e.from}\u0000${e.to}`);
    if (from !== e.from || to !== e.to) {
      // Edges into or out of a collapsed group merge into one edge per pair of boxes: the route dot
      // gave the pair when it placed the group (groups of like nodes), else straight.
      const key = `${from}\u0000${to}`;
      const m = merged.get(key);
      if (m) {
        m.rules.push(e.rule);
        m.critical ||= critical;
        m.inferred &&= e.how === "inferred";
        continue;
      }
      const route = routes.get(key)?.shift();
      const geometry = route?.path ? { path: route.path, ...arrowAt(route.path) } : straight(a, b);
      const s = { ...geometry, from, to, routed: Boolean(route?.path), critical, inferred: e.how === "inferred", rules: [e.rule] };
      merged.set(key, s);
      out.push(s);
      continue;
    }
    out.push(edgeOf(e, routes.get(`${e.from}\u0000${e.to}`)?.shift(), a, b, critical));
  }
  return out;
}

/** dot keeps parallel edges in input order, so the n-th route of a pair is the n-th graph edge. */
function edgeOf(e: GraphEdge, route: LayoutEdge | undefined, a: SceneNode, b: SceneNode, critical: boolean): SceneEdge {
  const geometry = route?.path ? { path: route.path, ...arrowAt(route.path) } : straight(a, b);
  return { from: e.from, to: e.to, ...geometry, routed: Boolean(route?.path), critical, inferred: e.how === "inferred", rules: [e.rule] };
}

/** The arrow follows the last control point to the end point of dot's spline. */
function arrowAt(path: string): { tip: [number, number]; dir: [number, number] } {
  const xs = path.match(/-?\d+(?:\.\d+)?(?:e-?\d+)?/g)?.map(Number) ?? [];
  const n = xs.length;
  const tip: [number, number] = [xs[n - 2] ?? 0, xs[n - 1] ?? 0];
  return { tip, dir: unit(tip[0] - (xs[n - 4] ?? tip[0] - 1), tip[1] - (xs[n - 3] ?? tip[1])) };
}

/** From the border of one box to the border of the other, so the arrow tip stays visible. */
function straight(a: SceneNode, b: SceneNode): { path: string; tip: [number, number]; dir: [number, number] } {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const trim = (n: SceneNode): number => Math.min(Math.abs(n.width / 2 / (dx || 1e-9)), Math.abs(n.height / 2 / (dy || 1e-9)), 1);
  const ta = trim(a);
  const tb = trim(b);
  const tip: [number, number] = [b.x - dx * tb, b.y - dy * tb];
  return { path: `M${a.x + dx * ta},${a.y + dy * ta}L${tip[0]},${tip[1]}`, tip, dir: unit(dx, dy) };
}

function unit(dx: number, dy: number): [number, number] {
  const l = Math.hypot(dx, dy) || 1;
  return [dx / l, dy / l];
}

function shapeOf(s: string): SceneNode["shape"] {
  return s === "diamond" || s === "octagon" ? s : "box";
}

function shortLabel(n: GraphNode | undefined): string {
  if (!n) return "";
  const l = n.label.split("\n")[0]!;
  return l.length > LABEL_CHARS ? l.slice(0, LABEL_CHARS - 1) + "…" : l;
}
