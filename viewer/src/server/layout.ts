import { runDot, toDot, type Graph } from "@pagepath/graph-builder";
import type { Layout } from "./api.js";
import { layoutFromDotJson } from "./dot-json.js";
import { depthTreeEdges, rankedNodes, rankGraph } from "./layout-edges.js";

export interface LayoutOptions {
  rankdir: "LR" | "TB";
  /** Also lay out the nodes the emulator leaves out. */
  includeExcluded: boolean;
}

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

export async function layoutGraph(g: Graph, opts: LayoutOptions, what: string): Promise<Layout> {
  const shown = g.nodes.filter((n) => opts.includeExcluded || n.excluded === null);
  const ranking = rankGraph(shown, g.edges);
  const big = rankedNodes(ranking) > DOT_RANK_BUDGET;
  const args = ["-Tjson0", ...(big ? BIG_GRAPH_ARGS : [])];
  const routed = big ? { ...g, edges: depthTreeEdges(ranking) } : g;
  const started = performance.now();
  const json = (await runDot(toDot(routed, opts), args, what)).toString("utf8");
  const ms = Math.round(performance.now() - started);
  const layout = layoutFromDotJson(json, g.frames.map((f) => f.id), opts.rankdir);
  return { ...layout, kindColors: kindColors(g, layout.nodes), engine: { args, ms, routedEdges: big ? "depth-tree" : "all" } };
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
