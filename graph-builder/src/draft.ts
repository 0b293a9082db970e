import type { GraphEdge, GraphNode, NodeKind } from "./graph.js";

const PREFIX: Record<NodeKind, string> = {
  download: "dl", parse: "parse", resource: "res", script: "js", css: "css", timer: "timer", event: "ev", dcl: "dcl", load: "load", render: "render", fcp: "fcp", lcp: "lcp", preconnect: "pc",
};

/** A graph under construction: numbered node ids, de-duplicated edges, warnings. */
export class Draft {
  readonly nodes: GraphNode[] = [];
  readonly byId = new Map<string, GraphNode>();
  private readonly edgeMap = new Map<string, GraphEdge>();
  private readonly counters = new Map<NodeKind, number>();
  readonly warnings: string[] = [];

  add(node: Omit<GraphNode, "id" | "excluded"> & { excluded?: GraphNode["excluded"] }): GraphNode {
    const n = this.counters.get(node.kind) ?? 0;
    this.counters.set(node.kind, n + 1);
    const full = { excluded: null, ...node, id: `${PREFIX[node.kind]}${n}` } as GraphNode;
    this.nodes.push(full);
    this.byId.set(full.id, full);
    return full;
  }

  /** Adds an edge; an observed edge wins over an inferred one between the same nodes. */
  edge(from: GraphNode | undefined, to: GraphNode | undefined, rule: string, how: GraphEdge["how"]): void {
    if (!from || !to || from === to) return;
    const key = `${from.id}>${to.id}`;
    const old = this.edgeMap.get(key);
    if (old && (old.how === "observed" || how === "inferred")) return;
    this.edgeMap.set(key, { from: from.id, to: to.id, rule, how });
  }

  removeEdge(e: GraphEdge): void {
    this.edgeMap.delete(`${e.from}>${e.to}`);
  }

  get edges(): GraphEdge[] {
    return [...this.edgeMap.values()];
  }
}
