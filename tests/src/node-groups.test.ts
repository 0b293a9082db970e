import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { Graph } from "@pagepath/graph-builder";
import { collapseGroups, MIN_GROUP } from "@pagepath/viewer/dist/src/server/node-groups.js";
import { chainGroups } from "@pagepath/viewer/dist/src/server/chain-groups.js";
import { siblingGroups } from "@pagepath/viewer/dist/src/server/sibling-groups.js";
import { siblingGraph } from "./sibling-graph.js";

/** The sibling graph with `length` renderings one after another, each also waiting for the parse chunk. */
function withRenderChain(g: Graph, length: number): Graph {
  const p0 = g.nodes.find((n) => n.id === "p0")!;
  const renders = Array.from({ length }, (_, i) => ({ ...p0, id: `rd${i}`, kind: "render" as const, label: "rendering", parse: undefined }));
  const chain = renders.slice(1).map((r, i) => ({ from: `rd${i}`, to: r.id, rule: "render", how: "observed" as const }));
  const extra = renders.flatMap((r) => [{ from: "p0", to: r.id, rule: "render", how: "inferred" as const }, { from: r.id, to: "load", rule: "completion-load", how: "inferred" as const }]);
  return { ...g, nodes: [...g.nodes, ...renders], edges: [...g.edges, ...chain, ...extra] };
}

const shown = (g: Graph): Set<string> => new Set(g.nodes.filter((n) => n.excluded === null).map((n) => n.id));

describe("groups of like nodes", () => {
  it("groups same-kind leaf siblings of one parent, and leaves fetches whose runs matter and short runs apart", () => {
    const g = siblingGraph(20);
    const groups = siblingGroups(g, shown(g));
    assert.equal(groups.length, 1, JSON.stringify(groups.map((s) => s.label)));
    const [images] = groups;
    assert.deepEqual(new Set(images!.members), new Set(["r0", ...Array.from({ length: 20 }, (_, i) => `img${i + 1}`)]));
    assert.equal(images!.label, "21 images requested by the parser");
  });

  it("needs a run of MIN_GROUP", () => {
    assert.equal(siblingGroups(siblingGraph(MIN_GROUP - 2), shown(siblingGraph(0))).length, 0);
    const g = siblingGraph(MIN_GROUP - 1);
    assert.equal(siblingGroups(g, shown(g))[0]?.members.length, MIN_GROUP);
  });

  it("only groups nodes that are shown", () => {
    const g = siblingGraph(20);
    assert.deepEqual(siblingGroups(g, new Set([...shown(g)].filter((id) => !id.startsWith("img")))), []);
  });

  it("collapses a group into one node with its edges moved and deduplicated and the critical path through it", () => {
    const g = siblingGraph(600);
    const groups = siblingGroups(g, shown(g));
    const c = collapseGroups(g, groups);
    const id = groups[0]!.id;
    assert.equal(c.nodes.length, g.nodes.length - 600);
    const ids = new Set(c.nodes.map((n) => n.id));
    for (const e of c.edges) assert.ok(ids.has(e.from) && ids.has(e.to), `edge ${e.from} -> ${e.to} names a grouped node`);
    assert.equal(c.edges.filter((e) => e.from === "p0" && e.to === id).length, 1);
    assert.equal(c.edges.filter((e) => e.from === id && e.to === "load").length, 1);
    // Edges between ungrouped nodes are all kept.
    assert.equal(c.edges.filter((e) => e.from !== id && e.to !== id).length, g.edges.filter((e) => !groups[0]!.members.includes(e.from) && !groups[0]!.members.includes(e.to)).length);
    assert.deepEqual(c.criticalPath.nodes, ["d0", "p0", id, "load"]);
    assert.equal(c.nodes.find((n) => n.id === id)!.label, "601 images requested by the parser");
  });

  it("groups a chain of one kind, each the only child of the one before, with its members' other parents moved to it", () => {
    const g = withRenderChain(siblingGraph(0), 12);
    const [chain, ...more] = chainGroups(g, shown(g), new Set());
    assert.equal(more.length, 0);
    assert.deepEqual(chain!.members, Array.from({ length: 12 }, (_, i) => `rd${i}`));
    assert.equal(chain!.label, "12 renderings in a chain");
    const c = collapseGroups(g, [chain!]);
    assert.deepEqual(c.edges.filter((e) => e.from === chain!.id || e.to === chain!.id).map((e) => `${e.from}>${e.to}`).sort(), [`${chain!.id}>load`, `p0>${chain!.id}`]);
  });

  it("leaves short chains, chains of mixed kinds and nodes other groups took", () => {
    const short = withRenderChain(siblingGraph(0), MIN_GROUP - 1);
    assert.deepEqual(chainGroups(short, shown(short), new Set()), []);
    const g = withRenderChain(siblingGraph(0), 12);
    const mixed = { ...g, nodes: g.nodes.map((n) => (n.id === "rd6" ? { ...n, kind: "script" as const } : n)) };
    assert.deepEqual(chainGroups(mixed, shown(mixed), new Set()), []);
    assert.deepEqual(chainGroups(g, shown(g), new Set(["rd4"])), []);
  });
});
