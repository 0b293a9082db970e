import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { FrameInfo, GraphEdge, GraphNode } from "@pagepath/graph-builder";
import { layeredLayout } from "@pagepath/viewer/dist/src/server/layered-layout.js";
import { rankGraph } from "@pagepath/viewer/dist/src/server/layout-edges.js";
import { layoutGraph, LAYERED_ABOVE_NODES } from "@pagepath/viewer/dist/src/server/layout.js";
import { siblingGraph } from "./sibling-graph.js";

const template = siblingGraph(0, 0, 0).nodes.find((n) => n.id === "r0")!;

function node(id: string, frameId = "main"): GraphNode {
  return { ...template, id, label: id, frameId };
}

function edge(from: string, to: string): GraphEdge {
  return { from, to, rule: "R1", how: "observed" };
}

const FRAMES: FrameInfo[] = [
  { ...siblingGraph(0, 0, 0).frames[0]!, id: "main", parentId: null, url: "https://a.test/" },
  { ...siblingGraph(0, 0, 0).frames[0]!, id: "sub", parentId: "main", url: "https://b.test/frame.html" },
];

/** Edge pairs between consecutive ranks that cross, by the nodes' positions across the ranks. */
function crossings(edges: GraphEdge[], across: Map<string, number>): number {
  let n = 0;
  for (const [i, a] of edges.entries()) {
    for (const b of edges.slice(i + 1)) {
      if ((across.get(a.from)! - across.get(b.from)!) * (across.get(a.to)! - across.get(b.to)!) < 0) n++;
    }
  }
  return n;
}

describe("the layered layout for graphs past dot's reach", () => {
  it("orders each rank by its neighbours, so that two families listed interleaved do not cross", () => {
    // Parents A and B, their children listed a1, b1, a2, b2: in that order four edges cross.
    const nodes = ["A", "B", "a1", "b1", "a2", "b2"].map((id) => node(id));
    const edges = [edge("A", "a1"), edge("B", "b1"), edge("A", "a2"), edge("B", "b2")];
    const as = new Map(nodes.map((n, i) => [n.id, i]));
    assert.ok(crossings(edges, as) > 0, "the listed order crosses");
    const layout = layeredLayout(rankGraph(nodes, edges), FRAMES.slice(0, 1), "LR");
    const y = new Map(layout.nodes.map((n) => [n.id, n.y]));
    assert.equal(crossings(edges, y), 0);
  });

  it("places every node once, a column per rank with no two boxes overlapping, every edge pointing forward", () => {
    const g = siblingGraph(300);
    const layout = layeredLayout(rankGraph(g.nodes, g.edges), g.frames, "LR");
    assert.equal(layout.nodes.length, g.nodes.length);
    assert.equal(new Set(layout.nodes.map((n) => n.id)).size, g.nodes.length);
    const at = new Map(layout.nodes.map((n) => [n.id, n]));
    for (const e of g.edges) assert.ok(at.get(e.from)!.x < at.get(e.to)!.x, `${e.from} -> ${e.to} points back`);
    const columns = new Map<number, typeof layout.nodes>();
    for (const n of layout.nodes) columns.set(n.x, [...(columns.get(n.x) ?? []), n]);
    for (const column of columns.values()) {
      const sorted = column.sort((a, b) => a.y - b.y);
      for (const [i, n] of sorted.slice(1).entries()) assert.ok(n.y - n.height / 2 >= sorted[i]!.y + sorted[i]!.height / 2, `${sorted[i]!.id} and ${n.id} overlap`);
    }
    for (const n of layout.nodes) assert.ok(n.x - n.width / 2 >= 0 && n.y - n.height / 2 >= 0 && n.x + n.width / 2 <= layout.width && n.y + n.height / 2 <= layout.height, `${n.id} is outside the drawing`);
    assert.equal(layout.edges.length, 0, "no edge is routed: the viewer draws them straight");
  });

  it("keeps a frame's nodes inside its box and a subframe's box inside its parent's, top to bottom with TB", () => {
    const nodes = [node("p"), node("q", "sub"), node("r"), node("s", "sub"), node("t")];
    const edges = [edge("p", "q"), edge("p", "r"), edge("q", "s"), edge("r", "t"), edge("s", "t")];
    const layout = layeredLayout(rankGraph(nodes, edges), FRAMES, "TB");
    const box = new Map(layout.clusters.map((c) => [c.frameId, c]));
    const inside = (inner: { x: number; y: number; width: number; height: number }, outer: { x: number; y: number; width: number; height: number }) =>
      inner.x >= outer.x && inner.y >= outer.y && inner.x + inner.width <= outer.x + outer.width && inner.y + inner.height <= outer.y + outer.height;
    for (const n of layout.nodes) {
      const b = box.get(nodes.find((m) => m.id === n.id)!.frameId)!;
      assert.ok(inside({ x: n.x - n.width / 2, y: n.y - n.height / 2, width: n.width, height: n.height }, b), `${n.id} is outside its frame's box`);
    }
    assert.ok(inside(box.get("sub")!, box.get("main")!), "the subframe's box is inside the main frame's");
    const at = new Map(layout.nodes.map((n) => [n.id, n]));
    for (const e of edges) assert.ok(at.get(e.from)!.y < at.get(e.to)!.y, `${e.from} -> ${e.to} points up`);
    assert.equal(at.get("q")!.y, at.get("r")!.y, "a rank is a row");
  });

  it("lays out a graph past LAYERED_ABOVE_NODES itself, and a smaller one with dot", async () => {
    const big = await layoutGraph(siblingGraph(LAYERED_ABOVE_NODES), { rankdir: "LR", includeExcluded: false, groups: { collapse: "none", except: [] } }, "big");
    assert.equal(big.engine.name, "layered");
    assert.equal(big.engine.routedEdges, "none");
    assert.ok(big.nodes.length > LAYERED_ABOVE_NODES);
    assert.ok(big.kindColors.resource, "kinds have the colours dot gives them");
    const small = await layoutGraph(siblingGraph(20), { rankdir: "LR", includeExcluded: false }, "small");
    assert.equal(small.engine.name, "dot");
  });
});
