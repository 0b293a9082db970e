/**
 * The emulated subgraph and its critical path: the costliest chain of activities from the root to
 * the main frame's load marker (seed 001 §3.5.3.2), which bounds how fast the page can load.
 */
import type { CriticalPath, Graph, GraphNode } from "./graph.js";

export interface EmulatedView {
  /** Emulated nodes (excluded === null), in file order. */
  nodes: Map<string, GraphNode>;
  children: Map<string, string[]>;
  parents: Map<string, string[]>;
}

/** Excluded nodes stay in the file for the viewer, but only the rest is replayed, so only they count. */
export function emulatedView(g: Graph): EmulatedView {
  const nodes = new Map<string, GraphNode>();
  for (const n of g.nodes) if (n.excluded === null) nodes.set(n.id, n);
  const children = new Map<string, string[]>();
  const parents = new Map<string, string[]>();
  for (const id of nodes.keys()) {
    children.set(id, []);
    parents.set(id, []);
  }
  // Several rules may justify the same dependency; the view needs it once.
  const seen = new Set<string>();
  for (const e of g.edges) {
    const kids = children.get(e.from);
    const pars = parents.get(e.to);
    const key = `${e.from}\u0000${e.to}`;
    if (!kids || !pars || seen.has(key) || lateRace(e, nodes)) continue;
    seen.add(key);
    kids.push(e.to);
    pars.push(e.from);
  }
  return { nodes, children, parents };
}

/**
 * A resource a timer or script requested after the recording's load, raced against a replay's
 * (markers.ts): the recorded load did not wait for it, so no path to load runs through it.
 */
function lateRace(e: Graph["edges"][number], nodes: Map<string, GraphNode>): boolean {
  if (e.rule !== "completion-load-raced") return false;
  const from = nodes.get(e.from);
  const to = nodes.get(e.to);
  return !!from && !!to && !from.resource?.lazyBound && from.start > to.start;
}

/** What a node adds to a path: a timer's callback runs timeoutMs after its installer did. */
export function nodeCost(n: GraphNode): number {
  return n.duration + (n.kind === "timer" ? (n.timer?.timeoutMs ?? 0) : 0);
}

/** Kahn's algorithm, parents before children; throws naming a node on a cycle. */
export function topologicalOrder(view: EmulatedView): string[] {
  const pending = new Map<string, number>();
  // Doubles as the queue: everything before i is placed, everything after is ready.
  const order: string[] = [];
  for (const [id, pars] of view.parents) {
    pending.set(id, pars.length);
    if (pars.length === 0) order.push(id);
  }
  for (let i = 0; i < order.length; i++) {
    for (const c of view.children.get(order[i]!)!) {
      const left = pending.get(c)! - 1;
      pending.set(c, left);
      if (left === 0) order.push(c);
    }
  }
  if (order.length < view.nodes.size) throw new Error(describeCycle(view, pending));
  return order;
}

// A node left over by Kahn may only sit downstream of a cycle; every leftover has a leftover
// parent, so walking parents must revisit a node, and that one is on the cycle.
function describeCycle(view: EmulatedView, pending: Map<string, number>): string {
  let id = [...pending].find(([, left]) => left > 0)![0];
  const step = new Map<string, number>();
  const walked: string[] = [];
  while (!step.has(id)) {
    step.set(id, walked.push(id) - 1);
    id = view.parents.get(id)!.find((p) => pending.get(p)! > 0)!;
  }
  const cycle = walked.slice(step.get(id)).reverse();
  return `dependency cycle through node ${id}: ${[id, ...cycle].join(" -> ")}`;
}

/**
 * Longest path by node cost from g.root to the main frame's load marker. If that marker is missing
 * or unreachable from the root, returns the longest path from the root to any node instead; the
 * caller notices (last node is not the load marker) and records a warning.
 */
export function criticalPath(g: Graph): CriticalPath {
  const view = emulatedView(g);
  const order = topologicalOrder(view);
  const root = view.nodes.get(g.root);
  if (!root) throw new Error(`root ${g.root} is not an emulated node`);

  const dist = new Map<string, number>([[root.id, nodeCost(root)]]);
  const pred = new Map<string, string>();
  for (const id of order) {
    const d = dist.get(id);
    if (d === undefined) continue; // not reachable from the root
    const from = view.nodes.get(id)!;
    for (const c of view.children.get(id)!) {
      const child = view.nodes.get(c)!;
      // A preloaded resource waits for the document's bytes (its preload edge), not the parser.
      if (child.resource?.preloaded && from.kind === "parse") continue;
      const through = d + nodeCost(child);
      if (through > (dist.get(c) ?? -Infinity)) {
        dist.set(c, through);
        pred.set(c, id);
      }
    }
  }

  const load = g.frames.find((f) => f.id === g.mainFrame)?.load;
  let target = root.id;
  if (load !== undefined && dist.has(load)) target = load;
  else for (const [id, d] of dist) if (d > dist.get(target)!) target = id;

  const nodes = [target];
  for (let p = pred.get(target); p !== undefined; p = pred.get(p)) nodes.push(p);
  nodes.reverse();
  return { nodes, ...summarise(nodes.map((id) => view.nodes.get(id)!)) };
}

type Breakdown = CriticalPath["breakdown"];

// Parts are summed in whole microseconds so that they add up to the total exactly as rounded.
function summarise(path: GraphNode[]): { totalMs: number; breakdown: Breakdown } {
  const us: Breakdown = { network: 0, script: 0, parse: 0, css: 0, other: 0 };
  const add = (part: keyof Breakdown, ms: number) => (us[part] += Math.round(ms * 1000));
  for (const n of path) {
    switch (n.kind) {
      case "resource":
      case "download":
        add("network", n.duration);
        break;
      case "timer":
        add("script", n.duration);
        add("other", n.timer?.timeoutMs ?? 0);
        break;
      case "script":
      case "event":
        add("script", n.duration);
        break;
      case "parse":
        add("parse", n.duration);
        break;
      case "css":
        add("css", n.duration);
        break;
      default:
        add("other", n.duration);
    }
  }
  const total = us.network + us.script + us.parse + us.css + us.other;
  const ms = (x: number) => x / 1000;
  return {
    totalMs: ms(total),
    breakdown: { network: ms(us.network), script: ms(us.script), parse: ms(us.parse), css: ms(us.css), other: ms(us.other) },
  };
}
