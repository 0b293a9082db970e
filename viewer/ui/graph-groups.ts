import type { Graph } from "@pagepath/graph-builder";
import type { Layout } from "../src/server/api.js";
import type { GroupedLayout } from "../src/server/layout.js";
import type { Group } from "./graph-scene.js";

/** A timer set inside a timer's callback (Table 3.1's R21): such timers form a chain. */
const TIMER_CHAIN_RULE = "R21";

/** What the view can collapse: each subframe with its descendants, and each chain of two or more timers. */
export function collapsibleGroups(graph: Graph, layout: Layout & Partial<Pick<GroupedLayout, "nodeGroups">>): Group[] {
  return [...frameGroups(graph, layout), ...timerChains(graph, layout)];
}

function frameGroups(graph: Graph, layout: Layout & Partial<Pick<GroupedLayout, "nodeGroups">>): Group[] {
  const children = new Map<string, string[]>();
  for (const f of graph.frames) if (f.parentId) children.set(f.parentId, [...(children.get(f.parentId) ?? []), f.id]);
  const clusters = new Map(layout.clusters.map((c) => [c.frameId, c]));
  // Members of a collapsed group of like nodes are placed with it; the frame takes them all.
  const placed = new Set([...layout.nodes.map((n) => n.id), ...(layout.nodeGroups ?? []).flatMap((s) => (s.collapsed ? s.members : []))]);
  const out: Group[] = [];
  for (const f of graph.frames) {
    const box = clusters.get(f.id);
    if (!f.parentId || !box) continue;
    const frames = subtree(f.id, children);
    const inFrames = new Set(frames);
    const members = new Set(graph.nodes.filter((n) => inFrames.has(n.frameId) && placed.has(n.id)).map((n) => n.id));
    if (members.size) out.push({ id: `collapsed:frame:${f.id}`, label: `frame ${shortUrl(f.url)} (${members.size})`, members, frames, box });
  }
  return out;
}

function subtree(root: string, children: Map<string, string[]>): string[] {
  const out = [root];
  for (let i = 0; i < out.length; i++) out.push(...(children.get(out[i]!) ?? []));
  return out;
}

/** Connected components of timers over R21 edges, found with union-find. */
function timerChains(graph: Graph, layout: Layout): Group[] {
  const pos = new Map(layout.nodes.map((n) => [n.id, n]));
  const parent = new Map<string, string>();
  const find = (x: string): string => {
    let r = x;
    while (parent.get(r) !== r) r = parent.get(r)!;
    parent.set(x, r);
    return r;
  };
  for (const e of graph.edges) {
    if (e.rule !== TIMER_CHAIN_RULE || !pos.has(e.from) || !pos.has(e.to)) continue;
    for (const id of [e.from, e.to]) if (!parent.has(id)) parent.set(id, id);
    parent.set(find(e.to), find(e.from));
  }
  const chains = new Map<string, string[]>();
  for (const id of parent.keys()) chains.set(find(id), [...(chains.get(find(id)) ?? []), id]);
  return [...chains.values()]
    .filter((ids) => ids.length >= 2)
    .map((ids) => {
      const ns = ids.map((id) => pos.get(id)!);
      const x = Math.min(...ns.map((n) => n.x - n.width / 2));
      const y = Math.min(...ns.map((n) => n.y - n.height / 2));
      const width = Math.max(...ns.map((n) => n.x + n.width / 2)) - x;
      const height = Math.max(...ns.map((n) => n.y + n.height / 2)) - y;
      return { id: `collapsed:timers:${ids.sort()[0]}`, label: `timer chain (${ids.length})`, members: new Set(ids), frames: [], box: { x, y, width, height } };
    });
}

function shortUrl(url: string): string {
  const s = url.replace(/^https?:\/\//, "");
  return s.length > 40 ? s.slice(0, 39) + "…" : s;
}
