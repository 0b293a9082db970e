import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Graph, GraphEdge, GraphNode } from "@pagepath/graph-builder";

/**
 * The shared minimal test vector (one parse chunk fetching logo.png) grown by `images` more images
 * requested by the same parse chunk, `scripts` script fetches that each run (children that matter, so
 * they stay apart) and `fonts` fonts (a run too short to group). The original image stays on the
 * critical path, so the group holding it must be drawn as critical.
 */
export function siblingGraph(images: number, scripts = 9, fonts = 3): Graph {
  const g = JSON.parse(readFileSync(join(process.cwd(), "graph-builder", "test-vectors", "valid", "minimal.json"), "utf8")) as Graph;
  const image = g.nodes.find((n) => n.id === "r0")!;
  const nodes: GraphNode[] = [...g.nodes];
  const edges: GraphEdge[] = [...g.edges];
  const fetched = (id: string, type: string, url: string): GraphNode => ({ ...image, id, label: url, resource: { ...image.resource!, url: `https://a.test/${url}`, resourceType: type, archiveIds: [] } });
  for (let i = 1; i <= images; i++) {
    nodes.push(fetched(`img${i}`, "Image", `i${i}.png`));
    edges.push({ from: "p0", to: `img${i}`, rule: "R1", how: "observed" }, { from: `img${i}`, to: "load", rule: "completion-load", how: "inferred" });
  }
  for (let i = 1; i <= scripts; i++) {
    nodes.push(fetched(`js${i}`, "Script", `s${i}.js`));
    nodes.push({ ...image, id: `run${i}`, kind: "script", label: `s${i}.js`, resource: undefined, script: { url: `https://a.test/s${i}.js`, type: "async", line: 0, segment: 0 } } as GraphNode);
    edges.push({ from: "p0", to: `js${i}`, rule: "R1", how: "observed" }, { from: `js${i}`, to: `run${i}`, rule: "R10", how: "observed" });
  }
  for (let i = 1; i <= fonts; i++) {
    nodes.push(fetched(`font${i}`, "Font", `f${i}.woff2`));
    edges.push({ from: "p0", to: `font${i}`, rule: "R1", how: "observed" });
  }
  return { ...g, nodes, edges };
}

/**
 * The minimal test vector made long: `steps` scripts, each run after the one before and fetching an
 * image of its own, so nothing groups and the layout is a strip, as a page alternating parsing and
 * scripts a hundred times is.
 */
export function stripGraph(steps: number): Graph {
  const g = JSON.parse(readFileSync(join(process.cwd(), "graph-builder", "test-vectors", "valid", "minimal.json"), "utf8")) as Graph;
  const image = g.nodes.find((n) => n.id === "r0")!;
  const nodes: GraphNode[] = [...g.nodes];
  const edges: GraphEdge[] = [...g.edges];
  for (let i = 1; i <= steps; i++) {
    nodes.push({ ...image, id: `run${i}`, kind: "script", label: `step${i}.js`, resource: undefined, script: { url: `https://a.test/step${i}.js`, type: "sync", line: 0, segment: 0 } } as GraphNode);
    nodes.push({ ...image, id: `pic${i}`, label: `p${i}.png`, resource: { ...image.resource!, url: `https://a.test/p${i}.png`, archiveIds: [] } });
    edges.push({ from: i === 1 ? "p0" : `run${i - 1}`, to: `run${i}`, rule: "R10", how: "observed" }, { from: `run${i}`, to: `pic${i}`, rule: "R1", how: "observed" });
  }
  return { ...g, nodes, edges };
}
