/**
 * A layered layout of our own, for graphs too big for dot to lay out in seconds (dot took 14 s for
 * 10,000 nodes with its passes capped). The nodes go in columns by dependency depth, as dot ranks
 * them; each column is ordered by the barycentre of its neighbours in sweeps down and up the ranks
 * (Sugiyama et al. 1981), keeping each frame's nodes together so that its box encloses them; no edge
 * is routed: the viewer draws them straight, as it draws the edges dot leaves out.
 */
import { dotFrameLabel, dotNodeLabel, dotNodeStyle, type FrameInfo, type GraphNode } from "@pagepath/graph-builder";
import type { Layout, LayoutCluster, LayoutNode } from "./api.js";
import type { Ranking } from "./layout-edges.js";

/** dot's defaults, in points: node separation 0.25 in, rank separation 0.5 in, a node at least 0.75 x 0.5 in. */
const NODE_SEP = 18;
const RANK_SEP = 36;
const MIN_WIDTH = 54;
const HEIGHT = 36;
/** Helvetica 10 pt averages about this wide a character; dot pads a label by 0.11 in each side. */
const CHAR_WIDTH = 5.6;
const LABEL_PAD = 16;
const CLUSTER_PAD = 8;
const SWEEPS = 4;

export function layeredLayout({ nodes, edges, depth }: Ranking, frames: FrameInfo[], rankdir: "LR" | "TB"): Omit<Layout, "kindColors" | "engine"> {
  const frameOrder = framePreorder(frames);
  const order = (n: GraphNode) => frameOrder.get(n.frameId) ?? frames.length;
  const ranks: GraphNode[][] = [];
  for (const n of nodes) (ranks[depth.get(n.id) ?? 0] ??= []).push(n);
  const parents = neighbours(edges.map((e) => [e.to, e.from]));
  const children = neighbours(edges.map((e) => [e.from, e.to]));
  const position = new Map<string, number>();
  const place = (rank: GraphNode[]) => rank.forEach((n, i) => position.set(n.id, rank.length > 1 ? i / (rank.length - 1) : 0.5));
  for (const rank of ranks) if (rank) place(rank.sort((a, b) => order(a) - order(b)));
  for (let sweep = 0; sweep < SWEEPS; sweep++) {
    const down = sweep % 2 === 0;
    const across = down ? parents : children;
    const sequence = down ? ranks.keys() : [...ranks.keys()].reverse();
    for (const r of sequence) {
      const rank = ranks[r];
      if (!rank) continue;
      const key = new Map(rank.map((n) => [n.id, barycentre(across.get(n.id), position) ?? position.get(n.id)!]));
      place(rank.sort((a, b) => order(a) - order(b) || key.get(a.id)! - key.get(b.id)!));
    }
  }
  const placed = placeNodes(ranks, rankdir);
  const [width, height] = [Math.max(0, ...placed.map((n) => n.x + n.width / 2)) + CLUSTER_PAD, Math.max(0, ...placed.map((n) => n.y + n.height / 2)) + CLUSTER_PAD];
  return { width, height, rankdir, nodes: placed, edges: [], clusters: frameBoxes(frames, nodes, placed) };
}

/** Centres and sizes: a column (row, top to bottom) per rank, each centred on the widest. */
function placeNodes(ranks: GraphNode[][], rankdir: "LR" | "TB"): LayoutNode[] {
  const sized = ranks.map((rank) => (rank ?? []).map((n) => ({ n, ...size(n) })));
  const across = (s: { width: number; height: number }) => (rankdir === "LR" ? s.height : s.width);
  const along = (s: { width: number; height: number }) => (rankdir === "LR" ? s.width : s.height);
  const spans = sized.map((rank) => rank.reduce((sum, s) => sum + across(s), 0) + NODE_SEP * Math.max(0, rank.length - 1));
  const widest = Math.max(0, ...spans);
  const out: LayoutNode[] = [];
  let at = CLUSTER_PAD * 2;
  for (const [r, rank] of sized.entries()) {
    const depth = Math.max(0, ...rank.map(along));
    let offset = CLUSTER_PAD * 2 + (widest - spans[r]!) / 2;
    for (const s of rank) {
      const mid = offset + across(s) / 2;
      const x = rankdir === "LR" ? at + depth / 2 : mid;
      const y = rankdir === "LR" ? mid : at + depth / 2;
      out.push({ id: s.n.id, x: round(x), y: round(y), width: s.width, height: s.height, ...dotNodeStyle(s.n) });
      offset += across(s) + NODE_SEP;
    }
    at += depth + RANK_SEP;
  }
  return out;
}

function size(n: GraphNode): { width: number; height: number } {
  const longest = Math.max(...dotNodeLabel(n).split("\n").map((line) => Array.from(line).length));
  return { width: Math.max(MIN_WIDTH, Math.ceil(longest * CHAR_WIDTH + LABEL_PAD)), height: HEIGHT };
}

/** Each frame's box: around its nodes and its subframes' boxes. */
function frameBoxes(frames: FrameInfo[], nodes: GraphNode[], placed: LayoutNode[]): LayoutCluster[] {
  const at = new Map(placed.map((p) => [p.id, p]));
  const box = new Map<string, [number, number, number, number]>();
  const grow = (frameId: string, x1: number, y1: number, x2: number, y2: number) => {
    const b = box.get(frameId);
    box.set(frameId, b ? [Math.min(b[0], x1), Math.min(b[1], y1), Math.max(b[2], x2), Math.max(b[3], y2)] : [x1, y1, x2, y2]);
  };
  for (const n of nodes) {
    const p = at.get(n.id)!;
    grow(n.frameId, p.x - p.width / 2 - CLUSTER_PAD, p.y - p.height / 2 - CLUSTER_PAD, p.x + p.width / 2 + CLUSTER_PAD, p.y + p.height / 2 + CLUSTER_PAD);
  }
  const byId = new Map(frames.map((f) => [f.id, f]));
  const depthOf = (f: FrameInfo) => {
    let d = 0;
    for (let p = f.parentId; p !== null && byId.has(p) && d < frames.length; p = byId.get(p)!.parentId) d++;
    return d;
  };
  // Deepest first, so a parent's box takes in its subframes' grown boxes.
  for (const f of [...frames].sort((a, b) => depthOf(b) - depthOf(a))) {
    const b = box.get(f.id);
    if (b && f.parentId !== null && byId.has(f.parentId)) grow(f.parentId, b[0] - CLUSTER_PAD, b[1] - CLUSTER_PAD, b[2] + CLUSTER_PAD, b[3] + CLUSTER_PAD);
  }
  return frames.flatMap((f) => {
    const b = box.get(f.id);
    if (!b) return [];
    return [{ frameId: f.id, label: dotFrameLabel(f), x: round(b[0]), y: round(b[1]), width: round(b[2] - b[0]), height: round(b[3] - b[1]), fill: depthOf(f) % 2 ? "#e4e4e4" : "#f2f2f2" }];
  });
}

/** Frames in the order dot nests their boxes: each frame, then its subframes. */
function framePreorder(frames: FrameInfo[]): Map<string, number> {
  const known = new Set(frames.map((f) => f.id));
  const childrenOf = new Map<string | null, FrameInfo[]>();
  for (const f of frames) {
    const parent = f.parentId !== null && known.has(f.parentId) ? f.parentId : null;
    childrenOf.set(parent, [...(childrenOf.get(parent) ?? []), f]);
  }
  const out = new Map<string, number>();
  const visit = (f: FrameInfo) => {
    if (out.has(f.id)) return;
    out.set(f.id, out.size);
    for (const c of childrenOf.get(f.id) ?? []) visit(c);
  };
  for (const f of childrenOf.get(null) ?? []) visit(f);
  for (const f of frames) visit(f);
  return out;
}

function neighbours(pairs: string[][]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [a, b] of pairs) {
    const list = out.get(a!);
    if (list) list.push(b!);
    else out.set(a!, [b!]);
  }
  return out;
}

function barycentre(ids: string[] | undefined, position: Map<string, number>): number | undefined {
  if (!ids?.length) return undefined;
  return ids.reduce((sum, id) => sum + position.get(id)!, 0) / ids.length;
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
