import type { Graph, GraphNode } from "@pagepath/graph-builder";

/** Two recordings of one page differ by a few ms everywhere; below this a change is noise, not news. */
export const DEFAULT_THRESHOLD_MS = 50;

/** The same activity in both graphs, and how its recorded timing moved from A to B. */
export interface NodePair {
  key: string;
  a: GraphNode;
  b: GraphNode;
  /** B minus A, ms. */
  startDelta: number;
  durationDelta: number;
}

export interface GraphDiff {
  pairs: NodePair[];
  onlyA: GraphNode[];
  onlyB: GraphNode[];
  /** Pairs whose start or duration moved by more than the threshold, biggest move first. */
  changed: NodePair[];
  /** Pairs on one graph's critical path but not on the other's; `joined`: the one is B's. */
  criticalChanged: (NodePair & { joined: boolean })[];
  /** Node id in A to its counterpart's id in B. */
  aToB: Map<string, string>;
  thresholdMs: number;
}

/** Why a node is outlined: it has no counterpart, it left or joined the critical path, or its timing moved. */
export type Mark = "only" | "critical" | "timing";

/**
 * Matches the nodes of two graphs of a page. Node ids are numbered per build, so they do not say which
 * nodes are the same activity; what the activity is does: the URL fetched, the document parsed, the
 * script run, or for timers, events and markers their frame's URL, plus the n-th such one by start time.
 */
export function diffGraphs(a: Graph, b: Graph, thresholdMs = DEFAULT_THRESHOLD_MS): GraphDiff {
  const keysA = nodeKeys(a);
  const keysB = nodeKeys(b);
  const pairs: NodePair[] = [];
  for (const [key, na] of keysA) {
    const nb = keysB.get(key);
    if (nb) pairs.push({ key, a: na, b: nb, startDelta: nb.start - na.start, durationDelta: nb.duration - na.duration });
  }
  const critA = new Set(a.criticalPath.nodes);
  const critB = new Set(b.criticalPath.nodes);
  const moved = (p: NodePair): number => Math.max(Math.abs(p.startDelta), Math.abs(p.durationDelta));
  return {
    pairs,
    onlyA: [...keysA].filter(([k]) => !keysB.has(k)).map(([, n]) => n),
    onlyB: [...keysB].filter(([k]) => !keysA.has(k)).map(([, n]) => n),
    changed: pairs.filter((p) => moved(p) > thresholdMs).sort((p, q) => moved(q) - moved(p)),
    criticalChanged: pairs.filter((p) => critA.has(p.a.id) !== critB.has(p.b.id)).map((p) => ({ ...p, joined: critB.has(p.b.id) })),
    aToB: new Map(pairs.map((p) => [p.a.id, p.b.id])),
    thresholdMs,
  };
}

/** Each node of one side that differs, by id; a node with several reasons gets the most telling one. */
export function diffMarks(d: GraphDiff, side: "a" | "b"): Map<string, Mark> {
  const marks = new Map<string, Mark>();
  for (const p of d.changed) marks.set(p[side].id, "timing");
  for (const p of d.criticalChanged) marks.set(p[side].id, "critical");
  for (const n of side === "a" ? d.onlyA : d.onlyB) marks.set(n.id, "only");
  return marks;
}

/** A warning when the graphs are of different pages: allowed, but then few nodes match. */
export function siteWarning(a: Graph, b: Graph): string | null {
  return a.source.url === b.source.url ? null : `These graphs are of different pages: A is ${a.source.url}, B is ${b.source.url}; only nodes with the same URLs match.`;
}

/** Every node by its stable key: what it is, plus "#n" for the n-th such node by start time. */
function nodeKeys(g: Graph): Map<string, GraphNode> {
  const frameUrl = new Map(g.frames.map((f) => [f.id, f.url]));
  const order = g.nodes.map((n, i) => ({ n, i })).sort((x, y) => x.n.start - y.n.start || x.i - y.i);
  const seen = new Map<string, number>();
  const out = new Map<string, GraphNode>();
  for (const { n } of order) {
    const base = describe(n, frameUrl.get(n.frameId) ?? n.frameId);
    const ordinal = seen.get(base) ?? 0;
    seen.set(base, ordinal + 1);
    out.set(`${base} #${ordinal}`, n);
  }
  return out;
}

function describe(n: GraphNode, frame: string): string {
  switch (n.kind) {
    case "resource":
      return `fetch ${n.resource!.url}`;
    case "download":
      return `document ${n.resource!.url} chunk ${n.chunk!.index}`;
    case "parse":
      return `parse ${n.parse!.url} chunk ${n.parse!.index}`;
    case "script":
      return `script ${n.script!.url} segment ${n.script!.segment}`;
    case "css":
      return `css ${n.css!.url} segment ${n.css!.segment}`;
    case "timer":
      return `timer in ${frame} segment ${n.timer!.segment}`;
    case "event":
      return `event ${n.event!.type} in ${frame} segment ${n.event!.segment}`;
    default:
      return `${n.kind} of ${frame}`;
  }
}
