import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { criticalPath } from "../src/critical-path.js";
import type { Graph, GraphNode, NodeKind, Priorities } from "../src/graph.js";
import { assignPriorities } from "../src/priorities.js";

const node = (id: string, kind: NodeKind, duration: number, extra: Partial<GraphNode> = {}): GraphNode => ({
  id, kind, frameId: "F", label: id, start: 0, end: duration, duration, excluded: null, ...extra,
});
const res = (id: string, duration: number, mimeType = "image/png", resourceType = "Image", extra: Partial<GraphNode> = {}) =>
  node(id, "resource", duration, {
    resource: {
      url: `https://a.test/${id}`, origin: "https://a.test", method: "GET", mimeType, resourceType, status: 200,
      protocol: "h2", archiveIds: [id], redirects: [], bodySize: 100, transferSize: 120, serverDelayMs: null,
      fromCache: null, preloaded: false, lazyBound: false, initiatorType: "parser", initiatorUrl: null, priority: null,
    },
    ...extra,
  });
const timer = (id: string, duration: number, timeoutMs: number) =>
  node(id, "timer", duration, { timer: { timerId: 1, timeoutMs, singleShot: true, fire: 0, segment: 0 } });
const load = () => node("L", "load", 0);

/** The first node is the root; each chain "a>b>c" adds the edges a->b and b->c. */
function graph(nodes: GraphNode[], chains: string[]): Graph {
  const edges = chains.flatMap((chain) => {
    const ids = chain.split(">");
    return ids.slice(1).map((to, i) => ({ from: ids[i]!, to, rule: "test", how: "observed" as const }));
  });
  return {
    schemaVersion: 1, kind: "pagepath-graph", tool: { name: "pagepath", version: "test" },
    source: { recording: "test", url: "https://a.test/", status: "complete", browser: "test" },
    mode: "full", root: nodes[0]!.id, mainFrame: "F",
    frames: [{ id: "F", parentId: null, url: "https://a.test/", firstDownload: nodes[0]!.id, lastDownload: nodes[0]!.id, dcl: "dcl", load: "L", beforeLoad: true }],
    nodes, edges, criticalPath: { nodes: [], totalMs: 0, breakdown: { network: 0, script: 0, parse: 0, css: 0, other: 0 } },
    recorded: { domContentLoaded: null, load: null }, warnings: [],
  };
}

const prio = (g: Graph, id: string): Priorities => g.nodes.find((n) => n.id === id)!.priority!;
const field = <K extends keyof Priorities>(g: Graph, ids: string[], k: K) => ids.map((id) => prio(g, id)[k]);

describe("critical path and critical-path priority", () => {
  // d(10) > p(5) forks: A(30) > L, or B(10) > s(50) > L.
  // Via A: 10+5+30 = 45; via B: 10+5+10+50 = 75, so the smaller resource B is on the critical path.
  // Weights: L 0, s 50, B 60, A 30, p 65, d 75. Algorithm 2: d, p, then heap {B 60, A 30}: B rank 0;
  // then heap {s 50, A 30}: s, then {A 30, L 0}: A rank 1.
  const diamond = () =>
    graph([node("d", "download", 10), node("p", "parse", 5), res("A", 30), res("B", 10, "text/javascript", "Script"), node("s", "script", 50), load()],
      ["d>p>A>L", "p>B>s>L"]);

  it("follows the longer branch of a diamond and ranks its resource first", () => {
    const g = diamond();
    assert.deepEqual(criticalPath(g), {
      nodes: ["d", "p", "B", "s", "L"], totalMs: 75,
      breakdown: { network: 20, script: 50, parse: 5, css: 0, other: 0 },
    });
    assignPriorities(g);
    assert.deepEqual(field(g, ["d", "p", "A", "B", "s", "L"], "criticalPathWeight"), [75, 65, 30, 60, 50, 0]);
    assert.deepEqual(field(g, ["d", "p", "A", "B", "s", "L"], "criticalPathRank"), [null, null, 1, 0, null, null]);
  });

  it("counts a timer's timeout as waiting time", () => {
    // d(10) > p(5) > s(2) > t(1, fires after 500) > r(20) > L, and a shortcut p > L.
    // Total 10+5+2+(1+500)+20 = 538: network 30, script 2+1, parse 5, other 500.
    const g = graph([node("d", "download", 10), node("p", "parse", 5), node("s", "script", 2), timer("t", 1, 500), res("r", 20), load()],
      ["d>p>s>t>r>L", "p>L"]);
    assert.deepEqual(criticalPath(g), {
      nodes: ["d", "p", "s", "t", "r", "L"], totalMs: 538,
      breakdown: { network: 30, script: 3, parse: 5, css: 0, other: 500 },
    });
    assignPriorities(g);
    assert.equal(prio(g, "t").criticalPathWeight, 521); // 501 + r's 20
  });

  it("classifies every kind and its parts sum to the total", () => {
    // network d 1.1 + c.css 3.3 = 4.4; parse 2.2; css 4.4; script 5.5 + e 0.6 + t 0.7 = 6.8;
    // other: t's timeout 8 (markers add 0). Total 4.4 + 2.2 + 4.4 + 6.8 + 8 = 25.8.
    const g = graph([
      node("d", "download", 1.1), node("p", "parse", 2.2), res("c.css", 3.3, "text/css", "Stylesheet"), node("c", "css", 4.4),
      node("s", "script", 5.5), node("e", "event", 0.6), timer("t", 0.7, 8), node("dcl", "dcl", 0), load(),
    ], ["d>p>c.css>c>s>e>t>dcl>L"]);
    const cp = criticalPath(g);
    assert.equal(cp.nodes.length, 9);
    assert.deepEqual(cp.breakdown, { network: 4.4, script: 6.8, parse: 2.2, css: 4.4, other: 8 });
    assert.equal(cp.totalMs, 25.8);
    const sum = Object.values(cp.breakdown).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(sum - cp.totalMs) < 1e-9, `${sum} vs ${cp.totalMs}`);
  });

  it("ignores excluded nodes", () => {
    // p > x(1000) > L would dominate, but x is excluded: the path is d, p, r, L = 1+1+10.
    const stale: Priorities = { criticalPathWeight: 1, criticalPathRank: 0, mimeRank: 3, depthWeight: 1, depthRank: 0 };
    const g = graph([node("d", "download", 1), node("p", "parse", 1), res("r", 10), res("x", 1000, "image/png", "Image", { excluded: "after-load", priority: stale }), load()],
      ["d>p>r>L", "p>x>L"]);
    assert.deepEqual(criticalPath(g).nodes, ["d", "p", "r", "L"]);
    assert.equal(criticalPath(g).totalMs, 12);
    assignPriorities(g);
    assert.equal("priority" in g.nodes.find((n) => n.id === "x")!, false);
    assert.equal(prio(g, "d").criticalPathWeight, 12);
    assert.equal(prio(g, "r").criticalPathRank, 0);
  });

  it("falls back to the longest path from the root when the load marker is unreachable", () => {
    // L has no parents: longest path from d is d, p, r (1+1+10).
    const g = graph([node("d", "download", 1), node("p", "parse", 1), res("r", 10), load()], ["d>p>r"]);
    assert.deepEqual(criticalPath(g).nodes, ["d", "p", "r"]);
  });

  it("throws on a cycle, naming a node on it rather than one downstream of it", () => {
    // a > b > c > a is the cycle; z hangs below it and is listed first, so the search starts there.
    const g = graph([node("d", "download", 1), node("z", "script", 1), node("a", "script", 1), node("b", "script", 1), node("c", "script", 1), load()],
      ["d>a>b>c>a", "c>z>L"]);
    assert.throws(() => criticalPath(g), /cycle through node [abc]\b/);
    assert.throws(() => assignPriorities(g), /cycle/);
  });
});

describe("MIME-type and node-depth priorities", () => {
  it("ranks HTML > CSS > JS > images > other", () => {
    // text/plain served for a script falls back to the browser's resource type.
    const g = graph([
      node("d", "download", 1), node("p", "parse", 1), res("html", 1, "text/html; charset=utf-8", "Document"),
      res("css", 1, "text/css", "Stylesheet"), res("js", 1, "application/javascript", "Script"), res("png", 1, "image/png", "Image"),
      res("font", 1, "font/woff2", "Font"), res("odd", 1, "text/plain", "Script"),
    ], ["d>p>html", "p>css", "p>js", "p>png", "p>font", "p>odd"]);
    assignPriorities(g);
    assert.deepEqual(field(g, ["d", "p", "html", "css", "js", "png", "font", "odd"], "mimeRank"), [0, null, 0, 1, 2, 3, 4, 2]);
  });

  it("depth ignores size: a deeper chain of small resources beats one big leaf", () => {
    // d(10) > p(1) forks: big(500) is a leaf; s1(10) > s2(10) > L.
    // Critical path weights: big 500, s1 20, s2 10 -> ranks big 0, s1 1, s2 2.
    // Depth weights (resources 1): big 1, s1 2, s2 1, p 2, d 3. After p the heap holds s1 2, big 1:
    // s1 rank 0; then big 1 and s2 1 tie, "big" < "s2" -> big 1, s2 2.
    const g = graph([node("d", "download", 10), node("p", "parse", 1), res("big", 500), res("s1", 10), res("s2", 10), load()],
      ["d>p>big", "p>s1>s2>L"]);
    assignPriorities(g);
    const ids = ["d", "p", "big", "s1", "s2", "L"];
    assert.deepEqual(field(g, ids, "criticalPathRank"), [null, null, 0, 1, 2, null]);
    assert.deepEqual(field(g, ids, "depthWeight"), [3, 2, 1, 2, 1, 0]);
    assert.deepEqual(field(g, ids, "depthRank"), [null, null, 1, 0, 2, null]);
  });

  it("ranks resources unreachable from the root last, by weight then id", () => {
    // o1(5) and o2(50) and o3(5) have no parents; r is reached from the root and ranks 0.
    const g = graph([node("d", "download", 1), res("r", 1), res("o1", 5), res("o2", 50), res("o3", 5), load()], ["d>r>L"]);
    assignPriorities(g);
    assert.deepEqual(field(g, ["r", "o2", "o1", "o3"], "criticalPathRank"), [0, 1, 2, 3]);
    assert.equal(prio(g, "o2").criticalPathWeight, 50);
  });
});

describe("large graphs", () => {
  const n = 20_000;

  it("handles a 20,000-node chain without deep recursion", () => {
    const ids = Array.from({ length: n }, (_, i) => `r${i}`);
    const g = graph([node("d", "download", 1), ...ids.map((id) => res(id, 1)), load()], [["d", ...ids, "L"].join(">")]);
    const cp = criticalPath(g);
    assert.equal(cp.nodes.length, n + 2);
    assert.equal(cp.totalMs, n + 1);
    assignPriorities(g);
    assert.equal(prio(g, "d").criticalPathWeight, n + 1);
    assert.equal(prio(g, "d").depthWeight, n + 1);
    assert.equal(prio(g, `r${n - 1}`).criticalPathRank, n - 1);
  });

  it("handles a 20,000-wide fan-out", () => {
    // r{i} costs i % 97: the 206 resources costing 96 come first, ordered by id as strings.
    const ids = Array.from({ length: n }, (_, i) => `r${i}`);
    const g = graph([node("d", "download", 1), ...ids.map((id, i) => res(id, i % 97)), load()], ids.map((id) => `d>${id}>L`));
    assert.equal(criticalPath(g).totalMs, 97);
    assignPriorities(g);
    const byRank = g.nodes.filter((x) => x.kind === "resource").sort((a, b) => a.priority!.criticalPathRank! - b.priority!.criticalPathRank!);
    assert.deepEqual(byRank.map((x) => x.priority!.criticalPathRank), ids.map((_, i) => i));
    const heaviest = ids.filter((_, i) => i % 97 === 96).sort();
    assert.deepEqual(byRank.slice(0, heaviest.length).map((x) => x.id), heaviest);
    assert.equal(byRank.at(-1)!.priority!.criticalPathWeight, 0);
  });
});
