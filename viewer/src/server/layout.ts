import { runDot, toDot, type Graph } from "@pagepath/graph-builder";
import type { Layout } from "./api.js";
import { layoutFromDotJson } from "./dot-json.js";
import { depthTreeEdges, rankedNodes, rankGraph } from "./layout-edges.js";
import { chainGroups } from "./chain-groups.js";
import { collapseGroups, type NodeGroup } from "./node-groups.js";
import { siblingGroups } from "./sibling-groups.js";
import { layeredLayout } from "./layered-layout.js";

export interface LayoutOptions {
  rankdir: "LR" | "TB";
  /** Also lay out the nodes the emulator leaves out. */
  includeExcluded: boolean;
  /** Which groups of like nodes dot places as one node: all or none (auto: all in big graphs), except the ids listed. */
  groups?: { collapse: "auto" | "all" | "none"; except: readonly string[] };
}

/**
 * Graphs with more shown nodes than this open with their groups of like nodes collapsed: at fit, a bigger
 * graph's nodes are under a pixel high on a laptop screen, and dot takes seconds to minutes over them.
 */
export const GROUPED_ABOVE_NODES = 500;

/** A layout with the graph's groups of like nodes; the collapsed ones are placed as one node named by the group id. */
export type GroupedLayout = Layout & { nodeGroups: (NodeGroup & { collapsed: boolean })[] };

/**
 * dot's time grows with the nodes it places, and every rank an edge skips adds a virtual node. Measured
 * on the realistic corpus with all edges routed: 1,224 nodes + virtual nodes laid out in 0.23 s, 2,504 in
 * 1.0 s, 4,037 in 2.7 s, and 8,100 (a 305-node page whose load marker gathers edges from every rank)
 * ran past 45 s. Above this budget dot routes only a depth tree (see depthTreeEdges), with straight lines
 * and capped network-simplex and crossing-minimisation passes.
 */
export const DOT_RANK_BUDGET = 2000;
/** newrank ranks the whole graph in one network-simplex pass instead of cluster by cluster: 2.0 s -> 0.9 s on a 2,336-node page. */
const BIG_GRAPH_ARGS = ["-Gsplines=line", "-Gnslimit=2", "-Gnslimit1=2", "-Gmclimit=0.5", "-Gnewrank=true"];

/**
 * Past this many shown nodes dot, even with a depth tree and capped passes, takes seconds: on
 * gen-pagepath-3 grown by copying its images (bench/src/grown-graph.ts), 1.0 s at 4,000 nodes,
 * 1.9 s at 6,000, 3.6 s at 8,000 and 5.5 s at 10,000, and 14 s on the viewer bench's 10,000-node
 * graph. Our own layered layout (layered-layout.ts) takes 0.1 s at 10,000.
 */
export const LAYERED_ABOVE_NODES = 4000;

export async function layoutGraph(full: Graph, opts: LayoutOptions, what: string): Promise<GroupedLayout> {
  const visible = new Set(full.nodes.filter((n) => opts.includeExcluded || n.excluded === null).map((n) => n.id));
  const siblings = siblingGroups(full, visible);
  const groups = [...siblings, ...chainGroups(full, visible, new Set(siblings.flatMap((s) => s.members)))];
  const except = new Set(opts.groups?.except ?? []);
  const mode = opts.groups?.collapse ?? "none";
  const all = mode === "all" || (mode === "auto" && visible.size > GROUPED_ABOVE_NODES);
  const collapsed = groups.filter((s) => all !== except.has(s.id));
  // Grouping before dot, not after: dot's time grows faster than the nodes it places.
  const g = collapseGroups(full, collapsed);
  const shown = g.nodes.filter((n) => opts.includeExcluded || n.excluded === null);
  const ranking = rankGraph(shown, g.edges);
  const flags = new Set(collapsed.map((s) => s.id));
  const nodeGroups = groups.map((s) => ({ ...s, collapsed: flags.has(s.id) }));
  if (shown.length > LAYERED_ABOVE_NODES) {
    const started = performance.now();
    const layout = layeredLayout(ranking, g.frames, opts.rankdir);
    const engine = { name: "layered" as const, args: [], ms: Math.round(performance.now() - started), routedEdges: "none" as const };
    return { ...layout, kindColors: kindColors(g, layout.nodes), engine, nodeGroups };
  }
  const big = rankedNodes(ranking) > DOT_RANK_BUDGET;
  const args = ["-Tjson0", ...(big ? BIG_GRAPH_ARGS : [])];
  const routed = big ? { ...g, edges: depthTreeEdges(ranking) } : g;
  const started = performance.now();
  const json = (await runDot(toDot(routed, opts), args, what)).toString("utf8");
  const ms = Math.round(performance.now() - started);
  const layout = layoutFromDotJson(json, g.frames.map((f) => f.id), opts.rankdir);
  return { ...layout, kindColors: kindColors(g, layout.nodes), engine: { name: "dot", args, ms, routedEdges: big ? "depth-tree" : "all" }, nodeGroups };
}

/** The colour dot drew each kind in (from its emulated nodes: excluded ones are faded). */
function kindColors(g: Graph, nodes: Layout["nodes"]): Record<string, string> {
  const color = new Map(nodes.map((n) => [n.id, n.color]));
  const out: Record<string, string> = {};
  for (const n of g.nodes) {
    const c = color.get(n.id);
    if (c && (out[n.kind] === undefined || n.excluded === null)) out[n.kind] = c.slice(0, 7);
  }
  return out;
}
