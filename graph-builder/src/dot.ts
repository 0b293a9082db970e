/**
 * Graphviz DOT for a dependency graph, coloured like the thesis's Graph Viewer (seed 001 §3.6):
 * parse chunks black, computations red, resources blue, timers orange, events green, one grey
 * box per frame with subframes nested inside their parent's box.
 */
import { RULES, type FrameInfo, type Graph, type GraphNode, type NodeKind } from "./graph.js";

export interface DotOptions {
  /** Also draw nodes the emulator leaves out (dotted, faded); by default they and their edges are omitted. */
  includeExcluded?: boolean;
  rankdir?: "LR" | "TB";
}

const KIND_STYLE: Record<NodeKind, { color: string; shape: string }> = {
  download: { color: "#0040ff", shape: "box" },
  parse: { color: "#000000", shape: "box" },
  resource: { color: "#0040ff", shape: "box" },
  script: { color: "#e00000", shape: "box" },
  css: { color: "#f08080", shape: "box" },
  timer: { color: "#ff8c00", shape: "box" },
  event: { color: "#00a000", shape: "box" },
  dcl: { color: "#808080", shape: "diamond" },
  load: { color: "#808080", shape: "octagon" },
  render: { color: "#008080", shape: "box" },
  fcp: { color: "#9b30ff", shape: "diamond" },
  lcp: { color: "#9b30ff", shape: "octagon" },
  preconnect: { color: "#0040ff", shape: "ellipse" },
};

/** Alpha suffix for "#rrggbb" colours of excluded nodes and their edges. */
const FADED = "55";
const LABEL_MAX = 60;

export function toDot(g: Graph, opts: DotOptions = {}): string {
  const shown = g.nodes.filter((n) => opts.includeExcluded || n.excluded === null);
  const byId = new Map(shown.map((n) => [n.id, n]));
  const critical = new Set(g.criticalPath.nodes);
  const lines = [
    "digraph pagepath {",
    `  graph [rankdir=${opts.rankdir ?? "LR"}, fontname="Helvetica", tooltip=${text(g.source.url)}];`,
    `  node [fontname="Helvetica", fontsize=10];`,
    `  edge [arrowsize=0.7];`,
    ...frameClusters(g.frames, shown, (n) => nodeLine(n, critical.has(n.id))),
    ...edgeLines(g, byId),
    "}",
    "",
  ];
  return lines.join("\n");
}

function frameClusters(frames: FrameInfo[], nodes: GraphNode[], drawNode: (n: GraphNode) => string): string[] {
  const known = new Set(frames.map((f) => f.id));
  const nodesOf = groupBy(nodes, (n) => (known.has(n.frameId) ? n.frameId : null));
  const childrenOf = groupBy(frames, (f) => (f.parentId !== null && known.has(f.parentId) ? f.parentId : null));
  const clusterNo = new Map(frames.map((f, i) => [f.id, i]));
  const lines: string[] = [];
  const done = new Set<string>();
  const emit = (f: FrameInfo, depth: number): void => {
    if (done.has(f.id)) return;
    done.add(f.id);
    const pad = "  ".repeat(depth);
    lines.push(`${pad}subgraph cluster_${clusterNo.get(f.id)} {`);
    lines.push(`${pad}  graph [label=${text(dotFrameLabel(f))}, tooltip=${text(f.url)}, style="rounded,filled", color="#999999", fillcolor="${depth % 2 ? "#f2f2f2" : "#e4e4e4"}"];`);
    for (const n of nodesOf.get(f.id) ?? []) lines.push(`${pad}  ${drawNode(n)}`);
    for (const c of childrenOf.get(f.id) ?? []) emit(c, depth + 1);
    lines.push(`${pad}}`);
  };
  for (const f of childrenOf.get(null) ?? []) emit(f, 1);
  // Frames whose parent chain loops never hang off a root; give them top-level boxes.
  for (const f of frames) emit(f, 1);
  for (const n of nodesOf.get(null) ?? []) lines.push(`  ${drawNode(n)}`);
  return lines;
}

/** A node's colour and shape as dot draws it, for a layout made without dot to look the same. */
export function dotNodeStyle(n: GraphNode): { color: string; shape: string } {
  const { color: base, shape } = KIND_STYLE[n.kind];
  return { color: n.excluded === null ? base : base + FADED, shape };
}

/** A node's label lines as dot draws them. */
export function dotNodeLabel(n: GraphNode): string {
  const size = n.kind === "resource" && n.resource ? `, ${(n.resource.transferSize / 1024).toFixed(1)} KB` : "";
  return `${shorten(n.label)}\n${n.duration.toFixed(1)} ms${size}`;
}

/** A frame's box label as dot draws it. */
export function dotFrameLabel(f: FrameInfo): string {
  return shorten(f.url);
}

function nodeLine(n: GraphNode, critical: boolean): string {
  const { color, shape } = dotNodeStyle(n);
  const label = dotNodeLabel(n);
  const style = n.excluded === null ? "rounded" : "rounded,dotted";
  const pen = critical ? ", penwidth=3" : "";
  return `${id(n.id)} [label=${text(label)}, tooltip=${text(nodeTooltip(n))}, shape=${shape}, style="${style}", color="${color}", fontcolor="${color}"${pen}];`;
}

function nodeTooltip(n: GraphNode): string {
  const url = n.resource?.url ?? n.script?.url ?? n.css?.url ?? n.parse?.url;
  const when = `${n.id}: ${n.start.toFixed(1)} to ${n.end.toFixed(1)} ms`;
  return [n.label, url, when, n.excluded && `excluded: ${n.excluded}`].filter(Boolean).join("\n");
}

function edgeLines(g: Graph, shown: Map<string, GraphNode>): string[] {
  const path = g.criticalPath.nodes;
  const critical = new Set(path.slice(1).map((to, i) => pairKey(path[i]!, to)));
  const lines: string[] = [];
  for (const e of g.edges) {
    const from = shown.get(e.from);
    const to = shown.get(e.to);
    if (!from || !to) continue;
    const attrs = [`tooltip=${text(RULES[e.rule] ? `${e.rule}: ${RULES[e.rule]}` : e.rule)}`];
    if (e.how === "inferred") attrs.push("style=dashed");
    if (critical.has(pairKey(e.from, e.to))) attrs.push("penwidth=3");
    if (from.excluded !== null || to.excluded !== null) attrs.push(`color="#000000${FADED}"`);
    lines.push(`  ${id(e.from)} -> ${id(e.to)} [${attrs.join(", ")}];`);
  }
  return lines;
}

function pairKey(from: string, to: string): string {
  return JSON.stringify([from, to]);
}

function groupBy<K, T>(items: T[], key: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const k = key(item);
    const list = out.get(k);
    if (list) list.push(item);
    else out.set(k, [item]);
  }
  return out;
}

/** Keeps both ends, per line: a URL's host and its file name are what identify it. */
function shorten(s: string, max = LABEL_MAX): string {
  return s
    .split("\n")
    .map((line) => {
      const cps = Array.from(line);
      if (cps.length <= max) return line;
      const head = Math.ceil((max - 1) / 2);
      return cps.slice(0, head).join("") + "…" + cps.slice(cps.length - (max - 1 - head)).join("");
    })
    .join("\n");
}

/** Lone surrogates would be invalid UTF-8, which dot rejects. */
function wellFormed(s: string): string {
  return s.replace(/\p{Cs}/gu, "\uFFFD");
}

/** A node name: DOT only unescapes \" here, and names are left verbatim in SVG titles. */
function id(s: string): string {
  return `"${wellFormed(s).replace(/\p{Cc}/gu, "\uFFFD").replace(/[\\"]/g, "\\$&")}"`;
}

/**
 * dot refuses quoted strings over 16,384 bytes ("longer than 16384?"), which a data: URL in a tooltip
 * easily is; lines are cut well below that, escapes and multi-byte characters included.
 */
const TEXT_LINE_MAX = 1000;

/** Label and tooltip text: dot expands \n-style escapes and HTML entities there, so both are neutralised. */
function text(s: string): string {
  const escaped = wellFormed(shorten(s, TEXT_LINE_MAX))
    .replace(/[\\"]/g, "\\$&")
    .replace(/&/g, "&amp;")
    .replace(/\r\n?|\n/g, "\\n")
    .replace(/\p{Cc}/gu, " ");
  return `"${escaped}"`;
}
