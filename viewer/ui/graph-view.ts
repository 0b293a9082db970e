import type { GraphEdge, GraphNode } from "@pagepath/graph-builder";
import type { Layout, LayoutEdge, LayoutNode } from "../src/server/api.js";
import { matches, mountFilter, type NodeFilter } from "./node-filter.js";
import { nodeSummary } from "./node-details.js";
import { loadLayout, type SiteData } from "./site-data.js";
import type { ViewState } from "./state.js";
import type { Tooltip } from "./tooltip.js";

export interface ViewHandlers {
  select(id: string): void;
  setRankdir(r: "LR" | "TB"): void;
  tooltip: Tooltip;
}

interface DrawnEdge {
  edge: GraphEdge;
  /** dot's route, or null when dot did not route it (big graphs): drawn straight. */
  routed: LayoutEdge | null;
}

const LABEL_CHARS = 30;
let showExcluded = false;

/** The dot layout drawn with D3: frames as boxes, critical path thick, inferred edges dashed. */
export async function renderGraph(main: HTMLElement, site: SiteData, state: ViewState, on: ViewHandlers): Promise<void> {
  main.innerHTML = `<div class="toolbar"><button type="button" id="rankdir">${state.rankdir === "LR" ? "top to bottom" : "left to right"}</button><button type="button" id="fit">fit</button><label><input type="checkbox" id="show-excluded"${showExcluded ? " checked" : ""}> excluded nodes</label><span class="note" id="layout-note">laying out with dot…</span></div>`;
  const bar = main.querySelector<HTMLElement>(".toolbar")!;
  bar.querySelector("#rankdir")!.addEventListener("click", () => on.setRankdir(state.rankdir === "LR" ? "TB" : "LR"));
  bar.querySelector<HTMLInputElement>("#show-excluded")!.addEventListener("change", (e) => {
    showExcluded = (e.target as HTMLInputElement).checked;
    void renderGraph(main, site, state, on);
  });
  const layout = await loadLayout(site.file, state.rankdir, showExcluded);
  if (!main.isConnected || !bar.isConnected) return;
  const svg = d3.select(main).append("svg").attr("class", "canvas exportable").attr("xmlns", "http://www.w3.org/2000/svg");
  const drawn = draw(svg, layout, site, on);
  const zoom = d3.zoom<SVGSVGElement, unknown>().scaleExtent([0.02, 8]).on("zoom", (e: d3.D3ZoomEvent<SVGSVGElement, unknown>) => drawn.viewport.attr("transform", e.transform.toString()));
  svg.call(zoom);
  const fit = (): void => {
    const box = svg.node()!.getBoundingClientRect();
    const k = Math.min(box.width / (layout.width + 20), box.height / (layout.height + 20), 2);
    svg.call(zoom.transform, d3.zoomIdentity.translate((box.width - layout.width * k) / 2, (box.height - layout.height * k) / 2).scale(k));
  };
  bar.querySelector("#fit")!.addEventListener("click", fit);
  fit();
  mountFilter(bar, site, (f) => drawn.filter(f));
  const straight = drawn.edges.filter((e) => e.routed === null).length;
  bar.querySelector("#layout-note")!.textContent = `${layout.nodes.length} nodes, dot ${layout.engine.ms} ms${straight ? `, ${straight} edges drawn straight (dot routed a depth tree)` : ""}`;
  drawn.highlight(state.node);
  svg.attr("data-drawn", "1");
}

function draw(svg: d3.Selection<SVGSVGElement, unknown, null, undefined>, layout: Layout, site: SiteData, on: ViewHandlers) {
  svg.append("defs").html('<marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0L10,5L0,10z" fill="#333"/></marker>');
  const viewport = svg.append("g").attr("class", "viewport");
  const clusters = viewport.append("g").selectAll("g").data(layout.clusters).join("g");
  clusters.append("rect").attr("x", (c) => c.x).attr("y", (c) => c.y).attr("width", (c) => c.width).attr("height", (c) => c.height).attr("rx", 6).attr("fill", (c) => c.fill).attr("stroke", "#999999");
  clusters.append("text").attr("x", (c) => c.x + c.width / 2).attr("y", (c) => c.y + 16).attr("text-anchor", "middle").attr("font-size", 14).attr("font-family", "Helvetica").text((c) => c.label);

  const pos = new Map(layout.nodes.map((n) => [n.id, n]));
  const edges = matchEdges(layout, site);
  const criticalPairs = new Set(site.graph.criticalPath.nodes.slice(1).map((to, i) => `${site.graph.criticalPath.nodes[i]}\u0000${to}`));
  const edgeSel = viewport
    .append("g")
    .attr("fill", "none")
    .selectAll("path")
    .data(edges)
    .join("path")
    .attr("d", (d) => d.routed?.path || straightPath(pos.get(d.edge.from)!, pos.get(d.edge.to)!))
    .attr("stroke", (d) => (d.routed ? "#333333" : "#888888"))
    .attr("stroke-width", (d) => (criticalPairs.has(`${d.edge.from}\u0000${d.edge.to}`) ? 3 : 1))
    .attr("stroke-dasharray", (d) => (d.edge.how === "inferred" ? "5,3" : null))
    .attr("marker-end", "url(#arrow)")
    .attr("data-rule", (d) => d.edge.rule)
    .attr("data-how", (d) => d.edge.how);

  const nodeSel = viewport
    .append("g")
    .selectAll<SVGGElement, LayoutNode>("g")
    .data(layout.nodes)
    .join("g")
    .attr("class", "node")
    .attr("data-id", (d) => d.id)
    .attr("transform", (d) => `translate(${d.x},${d.y})`)
    .style("cursor", "pointer");
  nodeSel.each(function (d) {
    const g = d3.select(this);
    const critical = site.critical.has(d.id);
    const shape = g.append(d.shape === "diamond" ? "polygon" : "rect");
    if (d.shape === "diamond") shape.attr("points", `0,${-d.height / 2} ${d.width / 2},0 0,${d.height / 2} ${-d.width / 2},0`);
    else shape.attr("x", -d.width / 2).attr("y", -d.height / 2).attr("width", d.width).attr("height", d.height).attr("rx", d.shape === "octagon" ? 10 : 4);
    shape.attr("class", "shape").attr("fill", "#ffffff").attr("stroke", d.color).attr("stroke-width", critical ? 3 : 1);
    const n = site.byId.get(d.id);
    if (n?.excluded) shape.attr("stroke-dasharray", "2,2");
    g.append("text").attr("text-anchor", "middle").attr("dy", "0.35em").attr("font-size", 10).attr("font-family", "Helvetica").attr("fill", d.color).text(shortLabel(n));
  });
  nodeSel
    .on("mouseenter", (e: MouseEvent, d) => on.tooltip.show(e, nodeSummary(site.byId.get(d.id)!, site)))
    .on("mousemove", (e: MouseEvent) => on.tooltip.move(e))
    .on("mouseleave", () => on.tooltip.hide())
    .on("click", (_, d) => on.select(d.id));

  return {
    viewport,
    edges,
    filter(f: NodeFilter): void {
      const shown = new Set(layout.nodes.filter((n) => matches(site.byId.get(n.id)!, f)).map((n) => n.id));
      nodeSel.attr("opacity", (d) => (shown.has(d.id) ? 1 : 0.12));
      edgeSel.attr("opacity", (d) => (shown.has(d.edge.from) || shown.has(d.edge.to) ? 1 : 0.08));
    },
    highlight(id: string | null): void {
      nodeSel.select(".shape").attr("fill", (d) => (d.id === id ? "#fff3a0" : "#ffffff"));
    },
  };
}

/** Pairs each drawn graph edge with dot's route for it; dot keeps parallel edges in input order. */
function matchEdges(layout: Layout, site: SiteData): DrawnEdge[] {
  const routes = new Map<string, LayoutEdge[]>();
  for (const e of layout.edges) {
    const key = `${e.from}\u0000${e.to}`;
    routes.set(key, [...(routes.get(key) ?? []), e]);
  }
  const placed = new Set(layout.nodes.map((n) => n.id));
  return site.graph.edges
    .filter((e) => placed.has(e.from) && placed.has(e.to))
    .map((edge) => ({ edge, routed: routes.get(`${edge.from}\u0000${edge.to}`)?.shift() ?? null }));
}

/** From the border of one node box to the border of the other, so the arrow tip stays visible. */
function straightPath(a: LayoutNode, b: LayoutNode): string {
  const trim = (n: LayoutNode, dx: number, dy: number): number => Math.min(Math.abs(n.width / 2 / (dx || 1e-9)), Math.abs(n.height / 2 / (dy || 1e-9)), 1);
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const ta = trim(a, dx, dy);
  const tb = trim(b, dx, dy);
  return `M${a.x + dx * ta},${a.y + dy * ta}L${b.x - dx * tb},${b.y - dy * tb}`;
}

function shortLabel(n: GraphNode | undefined): string {
  if (!n) return "";
  const l = n.label.split("\n")[0]!;
  return l.length > LABEL_CHARS ? l.slice(0, LABEL_CHARS - 1) + "…" : l;
}
