import { toDot, type Graph } from "@pagepath/graph-builder";
import type { Layout } from "./api.js";
import { layoutFromDotJson } from "./dot-json.js";
import { depthTreeEdges } from "./layout-edges.js";
import { runDot } from "./run-dot.js";

export interface LayoutOptions {
  rankdir: "LR" | "TB";
  /** Also lay out the nodes the emulator leaves out. */
  includeExcluded: boolean;
}

/**
 * Above this many nodes dot routes only a depth tree of the edges (see depthTreeEdges), with straight
 * lines and capped network-simplex and crossing-minimisation passes. Measured on a 2,368-node page
 * with all edges routed, dot ran past 5 minutes; routing the depth tree took 3.5 s, 2.1 s with the caps.
 */
export const BIG_GRAPH_NODES = 500;
const BIG_GRAPH_ARGS = ["-Gsplines=line", "-Gnslimit=2", "-Gnslimit1=2", "-Gmclimit=0.5"];

export async function layoutGraph(g: Graph, opts: LayoutOptions, what: string): Promise<Layout> {
  const shown = g.nodes.filter((n) => opts.includeExcluded || n.excluded === null);
  const big = shown.length > BIG_GRAPH_NODES;
  const args = ["-Tjson0", ...(big ? BIG_GRAPH_ARGS : [])];
  const routed = big ? { ...g, edges: depthTreeEdges(shown, g.edges) } : g;
  const started = performance.now();
  const json = await runDot(toDot(routed, opts), args, what);
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
