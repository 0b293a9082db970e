import { markBox, type Emphasis } from "./graph-canvas.js";
import type { Scene, SceneNode } from "./graph-scene.js";

const MARGIN = 10;

/**
 * The whole scene as a standalone SVG for export: what the canvas shows, with styles as attributes
 * and each node's id as data-id, so the file opens anywhere and can be searched.
 */
export function sceneSvg(scene: Scene, emphasis: Emphasis): SVGSVGElement {
  const svg = d3
    .create("svg")
    .attr("xmlns", "http://www.w3.org/2000/svg")
    .attr("viewBox", `${-MARGIN} ${-MARGIN} ${scene.width + 2 * MARGIN} ${scene.height + 2 * MARGIN}`)
    .attr("width", Math.ceil(scene.width + 2 * MARGIN))
    .attr("height", Math.ceil(scene.height + 2 * MARGIN))
    .attr("font-family", "Helvetica, Arial, sans-serif");
  svg.append("defs").html('<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#333"/></marker>');
  const clusters = svg.append("g").selectAll("g").data(scene.clusters).join("g");
  clusters.append("rect").attr("x", (c) => c.x).attr("y", (c) => c.y).attr("width", (c) => c.width).attr("height", (c) => c.height).attr("rx", 6).attr("fill", (c) => c.fill).attr("stroke", "#999999");
  clusters.append("text").attr("x", (c) => c.x + c.width / 2).attr("y", (c) => c.y + 16).attr("text-anchor", "middle").attr("font-size", 14).text((c) => c.label);
  const shown = (ids: string[]): boolean => !emphasis.shown || ids.some((id) => emphasis.shown!.has(id));
  const members = new Map(scene.nodes.map((n) => [n.id, n.members]));
  svg
    .append("g")
    .attr("fill", "none")
    .selectAll("path")
    .data(scene.edges)
    .join("path")
    .attr("d", (e) => e.path)
    .attr("stroke", (e) => (e.routed ? "#333333" : "#888888"))
    .attr("stroke-width", (e) => (e.critical ? 3 : 1))
    .attr("stroke-dasharray", (e) => (e.inferred ? "5,3" : null))
    .attr("opacity", (e) => (shown(members.get(e.from)!) || shown(members.get(e.to)!) ? null : 0.08))
    .attr("marker-end", "url(#arrow)")
    .attr("data-rules", (e) => e.rules.join(" "));
  const nodes = svg
    .append("g")
    .selectAll("g")
    .data(scene.nodes)
    .join("g")
    .attr("data-id", (n) => n.id)
    .attr("transform", (n) => `translate(${n.x},${n.y})`)
    .attr("opacity", (n) => (shown(n.members) ? null : 0.12));
  nodes.each(function (n) {
    const g = d3.select(this);
    const mark = emphasis.marks?.get(n.id);
    if (mark) appendShape(g, markBox(n)).attr("class", "mark").attr("fill", "none").attr("stroke", mark).attr("stroke-width", 5);
    appendShape(g, n)
      .attr("fill", n.id === emphasis.selected ? "#fff3a0" : "#ffffff")
      .attr("stroke", n.color)
      .attr("stroke-width", n.critical ? 3 : 1)
      .attr("stroke-dasharray", n.excluded ? "2,2" : null);
    g.append("text").attr("text-anchor", "middle").attr("dy", "0.35em").attr("font-size", 10).attr("fill", n.color).text(n.label);
  });
  return svg.node()!;
}

/** The node's outline centred on the group's origin. */
function appendShape<G extends d3.BaseType>(g: d3.Selection<G, unknown, null, undefined>, n: SceneNode): d3.Selection<SVGElement, unknown, null, undefined> {
  const shape = g.append<SVGElement>(n.shape === "diamond" ? "polygon" : "rect");
  if (n.shape === "diamond") return shape.attr("points", `0,${-n.height / 2} ${n.width / 2},0 0,${n.height / 2} ${-n.width / 2},0`);
  return shape.attr("x", -n.width / 2).attr("y", -n.height / 2).attr("width", n.width).attr("height", n.height).attr("rx", n.shape === "octagon" ? 10 : 4);
}
