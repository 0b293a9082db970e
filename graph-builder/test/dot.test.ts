import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { toDot } from "../src/dot.js";
import type { FrameInfo, Graph, GraphEdge, GraphNode, NodeKind } from "../src/graph.js";

const LONG_URL = `https://cdn.example.com/${"very-long-path/".repeat(12)}bundle.js?v=1`;
const TRICKY = 'say "hi"\nback\\slash & <b> café';

function node(id: string, kind: NodeKind, frameId: string, extra: Partial<GraphNode> = {}): GraphNode {
  return { id, kind, frameId, label: id, start: 0, end: 1, duration: 1.25, excluded: null, ...extra };
}

function frame(id: string, parentId: string | null, url: string): FrameInfo {
  return { id, parentId, url, firstDownload: null, lastDownload: null, dcl: `dcl-${id}`, load: `load-${id}`, beforeLoad: true };
}

function edge(from: string, to: string, rule: string, how: GraphEdge["how"] = "observed"): GraphEdge {
  return { from, to, rule, how };
}

function graph(frames: FrameInfo[], nodes: GraphNode[], edges: GraphEdge[], critical: string[]): Graph {
  return {
    schemaVersion: 1,
    kind: "pagepath-graph",
    tool: { name: "pagepath", version: "test" },
    source: { recording: "rec", url: "https://example.com/", status: "complete", browser: "test" },
    mode: "full",
    root: nodes[0]!.id,
    mainFrame: frames[0]!.id,
    frames,
    nodes,
    edges,
    criticalPath: { nodes: critical, totalMs: 0, breakdown: { network: 0, script: 0, parse: 0, css: 0, other: 0 } },
    recorded: { domContentLoaded: null, load: null },
    warnings: [],
  };
}

const resourceInfo = {
  url: LONG_URL, origin: "https://cdn.example.com", method: "GET", mimeType: "text/javascript", resourceType: "Script",
  status: 200, protocol: "h2", archiveIds: ["a1"], redirects: [], bodySize: 4096, transferSize: 2048, serverDelayMs: null,
  fromCache: null, preloaded: false, lazyBound: false, initiatorType: "parser", initiatorUrl: null, priority: "High",
};

const sample = graph(
  [frame("main", null, "https://example.com/"), frame("sub", "main", "https://ads.example.net/frame.html")],
  [
    node("d0", "download", "main"),
    node("p0", "parse", "main", { label: TRICKY }),
    node("r1", "resource", "main", { label: LONG_URL, resource: resourceInfo }),
    node("s1", "script", "main"),
    node("c1", "css", "main"),
    node("t1", "timer", "main"),
    node("e1", "event", "main"),
    node("dcl-main", "dcl", "main", { duration: 0 }),
    node("load-main", "load", "main", { duration: 0 }),
    node("x1", "timer", "main", { excluded: "after-load" }),
    node("d2", "download", "sub"),
    node("p2", "parse", "sub"),
    node("load-sub", "load", "sub", { duration: 0 }),
  ],
  [
    edge("d0", "p0", "R3"),
    edge("p0", "r1", "R1"),
    edge("r1", "s1", "R10"),
    edge("p0", "c1", "R18"),
    edge("s1", "t1", "R19"),
    edge("t1", "e1", "R20", "inferred"),
    edge("s1", "dcl-main", "completion-dcl", "inferred"),
    edge("dcl-main", "load-main", "completion-load", "inferred"),
    edge("p0", "d2", "R5"),
    edge("d2", "p2", "R3"),
    edge("p2", "load-sub", "completion-load", "inferred"),
    edge("load-sub", "load-main", "completion-load", "inferred"),
    edge("e1", "x1", "R20"),
  ],
  ["d0", "p0", "r1", "s1", "dcl-main", "load-main"],
);

/** Which cluster each cluster and node sits in, read back from the DOT's nesting. */
function structure(dot: string): { clusterParent: Map<string, string | null>; nodeCluster: Map<string, string | null> } {
  const clusterParent = new Map<string, string | null>();
  const nodeCluster = new Map<string, string | null>();
  const stack: string[] = [];
  for (const line of dot.split("\n").map((l) => l.trim())) {
    const open = /^subgraph (cluster_\d+) \{$/.exec(line);
    const decl = /^"((?:[^"\\]|\\.)*)" \[/.exec(line);
    if (open) {
      clusterParent.set(open[1]!, stack.at(-1) ?? null);
      stack.push(open[1]!);
    } else if (line === "}") stack.pop();
    else if (decl) nodeCluster.set(decl[1]!, stack.at(-1) ?? null);
  }
  return { clusterParent, nodeCluster };
}

function nodeLine(dot: string, id: string): string | undefined {
  return dot.split("\n").find((l) => l.trim().startsWith(`"${id}" [`));
}

function edgeLine(dot: string, from: string, to: string): string | undefined {
  return dot.split("\n").find((l) => l.trim().startsWith(`"${from}" -> "${to}" [`));
}

function svg(dot: string): string {
  return execFileSync("/usr/bin/dot", ["-Tsvg"], { input: dot, maxBuffer: 256 * 1024 * 1024 }).toString();
}

test("one cluster per frame, the iframe's inside the main frame's, each node in its frame's", () => {
  const { clusterParent, nodeCluster } = structure(toDot(sample));
  assert.deepEqual([...clusterParent], [["cluster_0", null], ["cluster_1", "cluster_0"]]);
  assert.equal(nodeCluster.get("s1"), "cluster_0");
  assert.equal(nodeCluster.get("p2"), "cluster_1");
  assert.equal(nodeCluster.get("load-sub"), "cluster_1");
});

test("each kind is drawn in its colour", () => {
  const dot = toDot(sample);
  const expected: [string, string][] = [
    ["p0", 'color="#000000"'],
    ["s1", 'color="#e00000"'],
    ["c1", 'color="#f08080"'],
    ["r1", 'color="#0040ff"'],
    ["d0", 'color="#0040ff"'],
    ["t1", 'color="#ff8c00"'],
    ["e1", 'color="#00a000"'],
    ["dcl-main", "shape=diamond"],
    ["load-main", "shape=octagon"],
  ];
  for (const [id, attr] of expected) assert.match(nodeLine(dot, id) ?? "", new RegExp(attr), id);
  assert.match(nodeLine(dot, "load-main")!, /color="#808080"/);
});

test("labels carry duration and, for resources, size; long URLs are shortened with the full one in the tooltip", () => {
  const line = nodeLine(toDot(sample), "r1")!;
  const label = /label="([^"]*)"/.exec(line)![1]!;
  assert.match(label, /…/);
  assert.ok(label.split("\\n")[0]!.length <= 60);
  assert.match(label, /\\n1\.3 ms, 2\.0 KB$/);
  assert.ok(line.includes(`tooltip="${LONG_URL}\\n`));
});

test("the critical path is thick, inferred edges dashed, observed solid, rules in tooltips", () => {
  const dot = toDot(sample);
  for (const [from, to] of [["d0", "p0"], ["p0", "r1"], ["r1", "s1"], ["s1", "dcl-main"], ["dcl-main", "load-main"]] as const) {
    assert.match(edgeLine(dot, from, to) ?? "", /penwidth=3/, `${from} -> ${to}`);
  }
  assert.match(nodeLine(dot, "s1")!, /penwidth=3/);
  assert.doesNotMatch(nodeLine(dot, "t1")!, /penwidth/);
  assert.doesNotMatch(edgeLine(dot, "s1", "t1")!, /penwidth|dashed/);
  assert.match(edgeLine(dot, "t1", "e1")!, /style=dashed/);
  assert.match(edgeLine(dot, "r1", "s1")!, /tooltip="R10: /);
});

test("excluded nodes are left out unless asked for, then dotted and faded", () => {
  const plain = toDot(sample);
  assert.equal(nodeLine(plain, "x1"), undefined);
  assert.equal(edgeLine(plain, "e1", "x1"), undefined);
  const all = toDot(sample, { includeExcluded: true });
  assert.match(nodeLine(all, "x1")!, /style="rounded,dotted".*color="#ff8c0055"/);
  assert.ok(edgeLine(all, "e1", "x1"));
});

test("rankdir defaults to LR and can be TB", () => {
  assert.match(toDot(sample), /rankdir=LR/);
  assert.match(toDot(sample, { rankdir: "TB" }), /rankdir=TB/);
});

test("quotes, backslashes, newlines, ampersands and non-ASCII are escaped, and dot renders them as written", () => {
  const dot = toDot(sample, { includeExcluded: true });
  assert.ok(nodeLine(dot, "p0")!.includes('label="say \\"hi\\"\\nback\\\\slash &amp; <b> café\\n1.3 ms"'));
  const out = svg(dot);
  assert.match(out, /<svg/);
  assert.match(out, /<title>cluster_0<\/title>/);
  assert.match(out, /<title>cluster_1<\/title>/);
  assert.match(out, />say &quot;hi&quot;</);
  assert.match(out, />back\\slash &amp; &lt;b&gt; café</);
  assert.match(out, />https:\/\/ads\.example\.net\/frame\.html</);
});

test("awkward ids still make valid DOT", () => {
  const ids = ['a"b', "c\\", "d\ne", "f\\\"g", "h\uD800i"];
  const g = graph(
    [frame('fr"ame\\', null, "https://example.com/\n")],
    ids.map((id) => node(id, "script", 'fr"ame\\', { label: id })),
    ids.slice(1).map((id, i) => edge(ids[i]!, id, "R14")),
    ids,
  );
  const out = svg(toDot(g));
  assert.equal(out.match(/class="node"/g)?.length, ids.length);
  assert.equal(out.match(/class="edge"/g)?.length, ids.length - 1);
});

test("a 3,000-node graph renders to SVG", () => {
  const frames = [frame("main", null, "https://example.com/"), frame("a", "main", "https://a.example/"), frame("b", "a", "https://b.example/")];
  const kinds: NodeKind[] = ["parse", "resource", "script", "css", "timer", "event", "download"];
  const nodes = Array.from({ length: 3000 }, (_, i) => node(`n${i}`, kinds[i % kinds.length]!, frames[i % 3]!.id, { label: `node ${i}` }));
  const edges = nodes.slice(1).map((n, i) => edge(`n${Math.floor(i / 3)}`, n.id, "R2", i % 2 ? "inferred" : "observed"));
  const out = svg(toDot(graph(frames, nodes, edges, ["n0", "n1", "n4", "n13"])));
  assert.match(out, /<svg/);
  assert.equal(out.match(/class="node"/g)?.length, 3000);
});
