import type { Graph, GraphEdge, GraphNode } from "@pagepath/graph-builder";

/**
 * `g` grown to `nodes` nodes by copying its emulated image fetches, each copy with its original's
 * edges: what the same page with more images would record, without profiling a page of 10,000 images
 * (minutes of Chromium). Copies go round the images so every parent's share grows alike.
 */
export function grownGraph(g: Graph, nodes: number): Graph {
  const images = g.nodes.filter((n) => n.kind === "resource" && n.resource?.resourceType === "Image" && n.excluded === null);
  if (!images.length) throw new Error("the graph has no images to copy");
  const ins = new Map<string, GraphEdge[]>();
  const outs = new Map<string, GraphEdge[]>();
  for (const e of g.edges) {
    ins.set(e.to, [...(ins.get(e.to) ?? []), e]);
    outs.set(e.from, [...(outs.get(e.from) ?? []), e]);
  }
  const added: GraphNode[] = [];
  const edges = [...g.edges];
  for (let i = 0; g.nodes.length + added.length < nodes; i++) {
    const image = images[i % images.length]!;
    const id = `${image.id}-copy${i}`;
    added.push({ ...image, id, resource: { ...image.resource!, url: `${image.resource!.url}#copy${i}`, archiveIds: [] } });
    for (const e of ins.get(image.id) ?? []) edges.push({ ...e, to: id });
    for (const e of outs.get(image.id) ?? []) edges.push({ ...e, from: id });
  }
  return { ...g, nodes: [...g.nodes, ...added], edges };
}
