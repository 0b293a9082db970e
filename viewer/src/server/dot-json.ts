/** Reads Graphviz's `-Tjson0` output into the viewer's Layout (y flipped to grow downwards). */
import type { Layout, LayoutCluster, LayoutEdge, LayoutNode } from "./api.js";

interface DotObject {
  _gvid: number;
  name: string;
  bb?: string;
  label?: string;
  fillcolor?: string;
  pos?: string;
  width?: string;
  height?: string;
  color?: string;
  shape?: string;
}

interface DotEdge {
  tail: number;
  head: number;
  pos?: string;
}

interface DotJson {
  bb: string;
  objects?: DotObject[];
  edges?: DotEdge[];
}

const POINTS_PER_INCH = 72;

export function layoutFromDotJson(text: string, frameIds: string[], rankdir: "LR" | "TB"): Omit<Layout, "kindColors" | "engine"> {
  const json = JSON.parse(text) as DotJson;
  const [, , width, height] = numbers(json.bb);
  const flip = (y: number): number => round(height! - y);
  const nodes: LayoutNode[] = [];
  const clusters: LayoutCluster[] = [];
  const names = new Map<number, string>();
  for (const o of json.objects ?? []) {
    names.set(o._gvid, o.name);
    const cluster = /^cluster_(\d+)$/.exec(o.name);
    if (cluster && o.bb) {
      const [x1, y1, x2, y2] = numbers(o.bb) as [number, number, number, number];
      const frameId = frameIds[Number(cluster[1])] ?? o.name;
      clusters.push({ frameId, label: o.label ?? "", x: x1, y: flip(y2), width: round(x2 - x1), height: round(y2 - y1), fill: o.fillcolor ?? "#eeeeee" });
    } else if (o.pos) {
      const [x, y] = numbers(o.pos) as [number, number];
      nodes.push({
        id: o.name,
        x,
        y: flip(y),
        width: round(Number(o.width ?? 0) * POINTS_PER_INCH),
        height: round(Number(o.height ?? 0) * POINTS_PER_INCH),
        color: o.color ?? "#000000",
        shape: o.shape ?? "box",
      });
    }
  }
  const edges: LayoutEdge[] = (json.edges ?? []).map((e) => ({ from: names.get(e.tail) ?? "", to: names.get(e.head) ?? "", path: e.pos ? splinePath(e.pos, flip) : "" }));
  return { width: width!, height: height!, rankdir, nodes, edges, clusters };
}

/** dot's "e,x,y s,x,y p0 p1 p2 p3 ..." (cubic Bézier control points) as SVG path data to the arrow tip. */
function splinePath(pos: string, flip: (y: number) => number): string {
  let end: string | null = null;
  const points: string[] = [];
  for (const token of pos.trim().split(/\s+/)) {
    const [a, b, c] = token.split(",");
    if (a === "e") end = `${b},${flip(Number(c))}`;
    else if (a !== "s") points.push(`${a},${flip(Number(b))}`);
  }
  const [first, ...rest] = points;
  if (first === undefined) return "";
  return `M${first}${rest.length ? `C${rest.join(" ")}` : ""}${end ? `L${end}` : ""}`;
}

function numbers(s: string): number[] {
  return s.split(",").map((v) => round(Number(v)));
}

function round(v: number): number {
  return Math.round(v * 100) / 100;
}
