/**
 * Resource priorities of seed 001 §3.5.3: critical-path weights and ranks (Algorithms 1 and 2),
 * MIME-type ranks, and the node-depth variant that counts resources instead of milliseconds.
 */
import { emulatedView, nodeCost, topologicalOrder, type EmulatedView } from "./critical-path.js";
import type { Graph, GraphNode } from "./graph.js";

/** Sets node.priority on every emulated node and removes it from excluded ones. */
export function assignPriorities(g: Graph): void {
  const view = emulatedView(g);
  const order = topologicalOrder(view);
  const weight = weights(view, order, nodeCost);
  const depth = weights(view, order, (n) => (n.kind === "resource" || n.kind === "download" ? 1 : 0));
  const weightRank = ranks(view, g.root, weight);
  const depthRank = ranks(view, g.root, depth);
  for (const n of g.nodes) {
    if (n.excluded !== null) {
      delete n.priority;
      continue;
    }
    n.priority = {
      criticalPathWeight: weight.get(n.id)!,
      criticalPathRank: weightRank.get(n.id) ?? null,
      mimeRank: mimeRank(n),
      depthWeight: depth.get(n.id)!,
      depthRank: depthRank.get(n.id) ?? null,
    };
  }
}

/**
 * Algorithm 1: a node's cost plus the heaviest child weight. Walking the topological order
 * backwards settles every child before its parents, so no recursion is needed. Weights are kept
 * to 3 decimals so that ranking compares exactly what the file shows.
 */
function weights(view: EmulatedView, order: string[], cost: (n: GraphNode) => number): Map<string, number> {
  const w = new Map<string, number>();
  for (let i = order.length - 1; i >= 0; i--) {
    const id = order[i]!;
    let heaviest = 0;
    for (const c of view.children.get(id)!) heaviest = Math.max(heaviest, w.get(c)!);
    w.set(id, Math.round((cost(view.nodes.get(id)!) + heaviest) * 1000) / 1000);
  }
  return w;
}

/** Heavier first; equal weights by id, so the order does not depend on edge order. */
function before(w: Map<string, number>, a: string, b: string): boolean {
  const d = w.get(a)! - w.get(b)!;
  return d !== 0 ? d > 0 : a < b;
}

/**
 * Algorithm 2: walk forward from the root, always expanding the heaviest node seen so far, and
 * number resources as they come out. Resources the walk never reaches rank after all others.
 */
function ranks(view: EmulatedView, root: string, w: Map<string, number>): Map<string, number> {
  const rank = new Map<string, number>();
  const isResource = (id: string) => view.nodes.get(id)!.kind === "resource";
  const heap = new MaxHeap<string>((a, b) => before(w, a, b));
  const visited = new Set<string>();
  if (view.nodes.has(root)) {
    heap.push(root);
    visited.add(root);
  }
  for (let id = heap.pop(); id !== undefined; id = heap.pop()) {
    if (isResource(id)) rank.set(id, rank.size);
    for (const c of view.children.get(id)!) {
      if (visited.has(c)) continue;
      visited.add(c);
      heap.push(c);
    }
  }
  const unreached = [...view.nodes.keys()].filter((id) => isResource(id) && !visited.has(id));
  unreached.sort((a, b) => (before(w, a, b) ? -1 : 1));
  for (const id of unreached) rank.set(id, rank.size);
  return rank;
}

// Servers often send a generic or wrong MIME type; the browser's own classification is next best.
const RANK_BY_RESOURCE_TYPE = new Map([["Document", 0], ["Stylesheet", 1], ["Script", 2], ["Image", 3]]);

/** HTML 0 > CSS 1 > JavaScript 2 > images 3 > other 4; null for computations and markers. */
function mimeRank(n: GraphNode): number | null {
  if (n.kind === "download") return 0;
  if (n.kind !== "resource") return null;
  const mime = (n.resource?.mimeType ?? "").split(";")[0]!.trim().toLowerCase();
  if (mime === "text/html" || mime === "application/xhtml+xml") return 0;
  if (mime === "text/css") return 1;
  if (/(java|ecma)script$/.test(mime)) return 2;
  if (mime.startsWith("image/")) return 3;
  return RANK_BY_RESOURCE_TYPE.get(n.resource?.resourceType ?? "") ?? 4;
}

/** Array-backed binary heap; `above(a, b)` says a must come out before b. */
class MaxHeap<T> {
  private items: T[] = [];
  constructor(private readonly above: (a: T, b: T) => boolean) {}

  push(x: T): void {
    const a = this.items;
    a.push(x);
    for (let i = a.length - 1; i > 0; ) {
      const up = (i - 1) >> 1;
      if (!this.above(a[i]!, a[up]!)) break;
      [a[i], a[up]] = [a[up]!, a[i]!];
      i = up;
    }
  }

  pop(): T | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length === 0 || last === undefined) return top;
    a[0] = last;
    for (let i = 0; ; ) {
      let best = i;
      for (const c of [2 * i + 1, 2 * i + 2]) if (c < a.length && this.above(a[c]!, a[best]!)) best = c;
      if (best === i) break;
      [a[i], a[best]] = [a[best]!, a[i]!];
      i = best;
    }
    return top;
  }
}
